// One small static page: what React Router itself costs a phone (download, hydrate), with no app code.
export function meta() {
  return [{ title: "Bare page" }, { name: "description", content: "The pages bench baseline" }];
}

export default function Page() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "32rem", margin: "0 auto", padding: "1rem" }}>
      <h1>Bare page</h1>
      <p>A React Router page with no app code, measured in the same run as the app's pages.</p>
    </main>
  );
}
