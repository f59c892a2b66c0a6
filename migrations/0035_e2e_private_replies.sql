-- Everything private is encrypted (README Decisions "Everything private is encrypted"; SECURITY.md "End-to-end
-- encrypted private messages"): a private thread reply between two members may carry the browser's signed
-- envelope (AES-256-GCM ciphertext, keys wrapped per device) instead of text; its `message` is then ''. Encrypted
-- images need no column: they are R2 kind `e2e` (opaque bytes, recorded in chat_media like `dm`).
ALTER TABLE `chat_threads` ADD `payload` text;
