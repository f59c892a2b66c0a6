import { redirect } from "react-router";

/** 303 to the same address without its body: for forms that only submit through the API once hydrated. */
export async function redirectBack(request: Request) {
  await request.body?.cancel();
  const url = new URL(request.url);
  return redirect(url.pathname + url.search, 303);
}
