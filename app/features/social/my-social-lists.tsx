/** My profile blocks owned by the social feature (issue 4): following, followers, blocked-by-me. */
export function MySocialLists(_props: { projectCode: string }) {
  return null;
}
