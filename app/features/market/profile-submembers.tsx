/** A master's sub-member (slave) list with the join button, shown on profiles (market feature, issue 7). */
export function ProfileSubmembers(_props: { projectCode: string; memberNo: string; multiGender: number | null }) {
  return null;
}
