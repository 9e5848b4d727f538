/** Pure: an event type as words ("MemberInvited" -> "Member invited"). */
export function humanizeType(type: string): string {
  const words = type
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
