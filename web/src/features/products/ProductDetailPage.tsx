export function ProductDetailPage() {
  return <div className="page"><h1 className="page-title">Product</h1></div>;
}
