/** The callback page every LINE sign-in returns to (§7 `redirectUrl`): `/{project}/line-callback` on our origin. */
export const LINE_CALLBACK_PATH = "line-callback";
