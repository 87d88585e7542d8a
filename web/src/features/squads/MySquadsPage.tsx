export function MySquadsPage() {
  return <div className="page"><h1 className="page-title">My Squads</h1></div>;
}
