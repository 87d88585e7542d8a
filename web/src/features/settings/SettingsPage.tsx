export function SettingsPage() {
  return <div className="page"><h1 className="page-title">Settings</h1></div>;
}
