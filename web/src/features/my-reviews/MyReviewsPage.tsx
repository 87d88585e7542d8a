export function MyReviewsPage() {
  return <div className="page"><h1 className="page-title">My Reviews</h1></div>;
}
