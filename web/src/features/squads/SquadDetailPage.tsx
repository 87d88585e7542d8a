export function SquadDetailPage() {
  return <div className="page"><h1 className="page-title">Squad</h1></div>;
}
