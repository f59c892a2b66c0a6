import type { SessionInfo } from "../../worker/contract/session";
import { api } from "../lib/api";

/** The sign-in endpoints (§7 core sessions and members), each with its path, method and answer type written once. */

const tenant = (projectCode: string) => projectCode.toUpperCase();

export const login = (projectCode: string, username: string, password: string) =>
  api<SessionInfo>(`/public/core/sessions/${tenant(projectCode)}`, { body: { username, password } });
export const logout = () => api("/private/core/sessions/expire", { method: "POST" });

export const signUp = (projectCode: string, username: string, password: string) =>
  api<SessionInfo>(`/public/core/members/${tenant(projectCode)}`, { body: { username, password, adult: true } });
/** §7 referral sign-up: the member joins the inviter's tenant, which the code names. */
export const referralSignUp = (username: string, password: string, referralCode: string) =>
  api<SessionInfo>("/public/core/members/referral-signup", { body: { username, password, adult: true, referralCode } });

export const forgotPassword = (projectCode: string, email: string) => api(`/public/core/members/${tenant(projectCode)}/forget/password`, { body: { email } });
export const resetPassword = (projectCode: string, token: string, newPassword: string) =>
  api(`/public/core/members/${tenant(projectCode)}/reset/password`, { body: { token, newPassword } });
