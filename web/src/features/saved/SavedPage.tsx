export function SavedPage() {
  return <div className="page"><h1 className="page-title">Saved Items</h1></div>;
}
