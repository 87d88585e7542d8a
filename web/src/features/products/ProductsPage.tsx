export function ProductsPage() {
  return <div className="page"><h1 className="page-title">Products</h1></div>;
}
