/**
 * A relative import `spec` written in `from`, resolved against the files that exist (`known`), trying `extensions`
 * in order: the one resolver of the house-rules loop test and the page-namespaces test.
 */
export function resolveImport(from: string, spec: string, known: { has(file: string): boolean }, extensions: readonly string[] = [".ts"]): string | null {
  if (!spec.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const piece of spec.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  const base = parts.join("/");
  const candidates = [base, ...extensions.map((ext) => `${base}${ext}`), ...extensions.map((ext) => `${base}/index${ext}`)];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
}
