export function CreateSquadPage() {
  return <div className="page"><h1 className="page-title">Create Squad</h1></div>;
}
