// Velvet service worker (README Decisions "Push that reaches a closed app"), scope /.
// A push carries no name, no text and not even the kind of notice: { v, url, tag }. What a lock screen shows is
// one generic line in the device's language, so a glance at the phone outs nobody. A click opens (or focuses) `url`.
const TEXT = {
  en: { title: "New notification", body: "Open the app to see it." },
  ja: { title: "新しいお知らせ", body: "アプリを開いて確認してください。" },
  "zh-CN": { title: "新通知", body: "打开应用查看。" },
  "zh-TW": { title: "新通知", body: "開啟應用程式查看。" },
};

function text() {
  const lang = (self.navigator?.language) || "en";
  if (/^zh-(TW|HK|MO|Hant)/i.test(lang)) return TEXT["zh-TW"];
  if (/^zh/i.test(lang)) return TEXT["zh-CN"];
  if (/^ja/i.test(lang)) return TEXT.ja;
  return TEXT.en;
}

/** Only a same-origin path is ever opened, whatever the payload says. */
function safeUrl(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : `${self.location.origin}/`;
  } catch {
    return `${self.location.origin}/`;
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const { title, body } = text();
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag: typeof data.tag === "string" ? data.tag : "velvet-inbox",
      renotify: true,
      icon: "/favicon.svg",
      data: { url: safeUrl(typeof data.url === "string" ? data.url : "/") },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data?.url) || `${self.location.origin}/`;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        await client.focus();
        if (client.url !== url && "navigate" in client) await client.navigate(url).catch(() => null);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
