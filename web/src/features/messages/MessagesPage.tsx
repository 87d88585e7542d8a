export function MessagesPage() {
  return <div className="page"><h1 className="page-title">Messages</h1></div>;
}
