import type { Relationship } from "../../../worker/features/social/relationship";

export type ProfileSocialControlsProps = {
  projectCode: string;
  memberNo: string;
  nickname: string;
  relationship: Relationship | null;
};

/**
 * Public profile controls owned by the social feature (issue 4): follow heart, friend request,
 * leave-message dialog, block/report control, mute. Rendered by the public profile page.
 */
export function ProfileSocialControls(_props: ProfileSocialControlsProps) {
  return null;
}
