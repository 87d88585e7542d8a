export function ExplorePage() {
  return <div className="page"><h1 className="page-title">Explore</h1></div>;
}
