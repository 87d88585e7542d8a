export function FriendsPage() {
  return <div className="page"><h1 className="page-title">Friends</h1></div>;
}
