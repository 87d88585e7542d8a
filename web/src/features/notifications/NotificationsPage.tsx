export function NotificationsPage() {
  return <div className="page"><h1 className="page-title">Notifications</h1></div>;
}
