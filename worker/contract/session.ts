import { z } from "zod";
import { Email, LoginPassword, NewPassword } from "./common";
export * from "./session.constants";

export const SignUpBody = z.object({
  username: Email,
  password: NewPassword,
  /** The form's adult-only confirmation (§1: registration is for adults 18 and over): required, never implied. */
  adult: z.literal(true, { error: "Confirm that you are 18 or over" }),
});
export const ReferralSignUpBody = SignUpBody.extend({ referralCode: z.string().trim().min(1).max(32) });
export const LoginBody = z.object({ username: Email, password: LoginPassword });
export const ForgetPasswordBody = z.object({ email: Email });
export const ResetPasswordBody = z.object({ token: z.string().min(16).max(128), newPassword: NewPassword });
export const ChangePasswordBody = z.object({ oldPassword: LoginPassword, newPassword: NewPassword });
export const OtpBody = z.object({ otp: z.string().regex(/^\d{6}$/).optional() });
export const TicketBody = z.object({ audience: z.enum(["socket", "api"]).default("socket") });

/** §3 session info kept in local storage. */
export type SessionInfo = {
  token: string;
  memberId: string;
  memberNo: string;
  sessionId: string;
  avator: string;
  expire: string;
  nickname: string;
  projectCode: string;
  language: string | null;
  kycStatus: number;
  /** §6 safe mode, so a new device shows placeholders from its first page (the §3 `isSafeMode` key mirrors it). */
  safeMode: boolean;
};

/** GET /core/members/{memberId}/referral: the member's own code for §7 referral sign-up, and how many joined by it. */
export type ReferralInfo = { referralCode: string; referralCount: number };

/** POST /core/sessions/ticket: a short-lived signed ticket (socket 60 s, api 15 min) and when it expires. */
export type SessionTicket = { ticket: string; expire: string };
