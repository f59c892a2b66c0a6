import type { TFunction } from "i18next";

/** §3 multiGender 1..6 and lookFor 0..6 as translated labels. */
export const genderLabel = (t: TFunction, gender: number | null | undefined) => (gender ? t(`profiles:gender.${gender}`) : t("profiles:gender.unset"));
export const lookForLabel = (t: TFunction, lookFor: number | null | undefined) => t(`profiles:lookFor.${lookFor ?? 0}`);
export const characterLabel = (t: TFunction, title: string) => t(`profiles:character.${title}`, { defaultValue: title });
