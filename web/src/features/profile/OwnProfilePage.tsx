export function OwnProfilePage() {
  return <div className="page"><h1 className="page-title">Profile</h1></div>;
}
