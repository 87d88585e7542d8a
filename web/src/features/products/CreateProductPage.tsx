export function CreateProductPage() {
  return <div className="page"><h1 className="page-title">Create New Product</h1></div>;
}
