import { LanguageFlags } from "../../components/language-flags";

/** The frame shared by login, registration and password reset. */
export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="page auth-page">
      <LanguageFlags />
      <div className="brand" aria-hidden="true">
        Velvet
      </div>
      <section className="card auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
