/** Routes with a wider content area and no right column (part 1 §2). */
export function hidesRightColumn(pathname: string): boolean {
  return pathname === '/settings' || pathname === '/messages' || pathname.startsWith('/messages/') || pathname.startsWith('/squads/');
}
