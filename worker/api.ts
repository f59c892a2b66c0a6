import { Hono } from "hono";
import { sessionPrivate, sessionPublic } from "./features/session/session.routes";
import { marketPrivate, marketPublic } from "./features/market/market.routes";
import { coinsPrivate } from "./features/coins/coins.routes";
import { collectiblesPrivate } from "./features/collectibles/collectibles.routes";
import { profilesPrivate, profilesPublic } from "./features/profiles/profiles.routes";
import { mediaPrivate, mediaPublic } from "./features/media/media.routes";
import { socialPrivate } from "./features/social/social.routes";
import { healthPublic } from "./features/health/health.routes";
import { aiPublic } from "./features/ai/ai.routes";
import { feedbackPrivate } from "./features/feedback/feedback.routes";
import { homePrivate } from "./features/home/home.routes";
import { tasksPrivate } from "./features/tasks/tasks.routes";
import { albumsPrivate, albumsPublic } from "./features/albums/albums.routes";
import { chatPrivate, chatPublic } from "./features/chat/chat.routes";
import { privacyPrivate } from "./features/privacy/privacy.routes";
import { moderationPrivate } from "./features/moderation/moderation.routes";
import { quietHoursPrivate } from "./features/notifications/quiet-hours";
import { connectionsVisibilityPrivate } from "./features/members/connections-visibility";
import { requestsFiltersPrivate } from "./features/social/requests-filters";
import { strangerMediaPrivate } from "./features/profiles/stranger-media.routes";
import { mutedWordsPrivate } from "./features/social/muted-words.routes";
import { e2eDevicesPrivate } from "./features/e2e/e2e-devices";
import { cardPaymentsPrivate, cardPaymentsPublic } from "./features/card-payments/card-payments.routes";
import { e2eLinkPrivate } from "./features/e2e/e2e-link";
import { e2eLinkThreadsPrivate } from "./features/e2e/e2e-link-threads";
import { dnaPrivate, dnaPublic } from "./features/profiles/dna";
import { creatorPrivate, creatorPublic } from "./features/profiles/creator-profile";
import { linePrivate, linePublic } from "./features/line/line.routes";
import { requireSession } from "./features/session/auth";
import { notFound } from "./http/envelope";
import { refuseControlCharacters } from "./http/plain-address";
import type { AppEnv } from "./http/types";

/**
 * The §7 API: `/public/*` needs no session, `/private/*` passes `requireSession` first.
 * Mounted at both /api/v6 and /api/v7 (same handlers). Each feature contributes its sub-apps here.
 */
const publicApi = new Hono<AppEnv>()
  .route("/", aiPublic)
  .route("/", albumsPublic)
  .route("/", sessionPublic)
  .route("/", marketPublic)
  .route("/", profilesPublic)
  .route("/", mediaPublic)
  .route("/", healthPublic)
  .route("/", chatPublic)
  // Card payments' webhook (README Decisions "Card payments"): signed by the provider, no session.
  .route("/", cardPaymentsPublic)
  // DNA pairing (login required) and creator profiles (README Decisions "DNA pairing and creator profiles").
  .route("/", dnaPublic)
  .route("/", creatorPublic)
  .route("/", linePublic); // LINE login (README Decisions "LINE login")

const privateApi = new Hono<AppEnv>()
  .use(requireSession)
  .route("/", marketPrivate)
  .route("/", coinsPrivate)
  .route("/", socialPrivate)
  .route("/", homePrivate)
  .route("/", tasksPrivate)
  .route("/", albumsPrivate)
  .route("/", feedbackPrivate)
  .route("/", sessionPrivate)
  .route("/", privacyPrivate)
  .route("/", moderationPrivate)
  .route("/", profilesPrivate)
  .route("/", mediaPrivate)
  .route("/", chatPrivate)
  // Quiet hours for web push (README Decisions "Push that reaches a closed app").
  .route("/", quietHoursPrivate)
  // Who sees my connections (README Decisions "Who sees my connections").
  .route("/", connectionsVisibilityPrivate)
  // Requests tray controls and filters (README Decisions "Filters for requests and notifications").
  .route("/", requestsFiltersPrivate)
  // Stranger media stays blurred: the owner's setting and the per-item avatar reveal (stranger-media.routes.ts).
  .route("/", strangerMediaPrivate)
  // Muted words (README Decisions "Muted words").
  .route("/", mutedWordsPrivate)
  // End-to-end encryption devices (README Decisions "Verifiable end-to-end keys").
  .route("/", e2eDevicesPrivate)
  // Collectibles and the daily lottery (README Decisions "Collectibles and the daily lottery").
  .route("/", collectiblesPrivate)
  // Card payments and card binding (README Decisions "Card payments").
  .route("/", cardPaymentsPrivate)
  // Linking a second end-to-end device (README Decisions "Linking a second device").
  .route("/", e2eLinkPrivate)
  .route("/", e2eLinkThreadsPrivate)
  // DNA pairing and creator profiles (README Decisions "DNA pairing and creator profiles").
  .route("/", dnaPrivate)
  .route("/", creatorPrivate)
  .route("/", linePrivate); // LINE bind, unbind (README Decisions "LINE login")

export const api = new Hono<AppEnv>()
  .use(refuseControlCharacters)
  .route("/public", publicApi)
  .route("/private", privateApi)
  .all("*", notFound);
