/**
 * The one error catalogue (§8). Each entry: six-digit returnCode, HTTP status, English text.
 * The browser translates by code (i18n key `errors.<code>`), falling back to the English text.
 * Add entries per feature in the marked sections; never reuse a code.
 */
export const errors = {
  // generic
  badRequest: { code: "400000", status: 400, message: "Invalid request" },
  badProjectCode: { code: "400001", status: 400, message: "Project code must be three letters" },
  malformedJson: { code: "400002", status: 400, message: "Malformed JSON in request body" },
  unauthorized: { code: "401000", status: 401, message: "Login required" },
  // §7: 100003 tells the client its session or OTP is no longer valid; it goes to login.
  sessionInvalid: { code: "100003", status: 401, message: "Session expired, please log in again" },
  forbidden: { code: "403000", status: 403, message: "Not allowed" },
  notFound: { code: "404000", status: 404, message: "Not found" },
  conflict: { code: "409000", status: 409, message: "Conflict" },
  tooLarge: { code: "413000", status: 413, message: "Request too large" },
  unsupportedMedia: { code: "415000", status: 415, message: "Only png, jpg and jpeg images are accepted" },
  rateLimited: { code: "429000", status: 429, message: "Too many requests, please try again later" },
  internal: { code: "500000", status: 500, message: "Something went wrong" },
  // The worker runs without a required secret (worker/http/config-guard.ts): every request gets this.
  notConfigured: { code: "503000", status: 503, message: "Service unavailable: the server is not configured" },

  // session (§7 Session, §8)
  loginFailed: { code: "401001", status: 401, message: "Incorrect email or password" },
  userExists: { code: "409001", status: 409, message: "User has already existed" },
  passwordMismatch: { code: "400101", status: 400, message: "Password does not match" },
  wrongOldPassword: { code: "403101", status: 403, message: "Current password is incorrect" },
  resetTokenInvalid: { code: "400102", status: 400, message: "This reset link is invalid or has expired" },
  otpWrong: { code: "400103", status: 400, message: "The confirmation code is wrong" },
  otpExpired: { code: "400104", status: 400, message: "The confirmation code has expired or was tried too often; ask for a new one" },
  referralUnknown: { code: "404101", status: 404, message: "Referral code not found" },
  accountSuspended: {
    code: "403102",
    status: 403,
    message: "report blocked - you have been reported too many times, the system will stop your use automatically",
  },

  // verification and profile state (§8)
  needKycToLeaveMessage: { code: "403201", status: 403, message: "Need to verify before leaving a message" },
  featureLimited: { code: "403202", status: 403, message: "Feature limited: this function requires verification first" },
  incompleteProfile: { code: "403203", status: 403, message: "user profile incomplete, content temporarily unavailable" },
  noAvatar: { code: "403204", status: 403, message: "Posting failed: please upload an avatar first" },
  badAvatar: { code: "403205", status: 403, message: "Posting failed: your avatar is not compliant" },
  badQualityAvatar: {
    code: "403206",
    status: 403,
    message: "Bad quality avatar: your avatar is not qualified so you cannot see others' avatars",
  },
  privateReplyNoAvatar: {
    code: "403207",
    status: 403,
    message: "If you have not uploaded an avatar, you cannot use private reply",
  },
  postingBlocked: { code: "403208", status: 403, message: "Posting blocked temporarily" },
  reportBlocked: {
    code: "403209",
    status: 403,
    message: "report blocked - you have been reported too many times, the system will stop your use automatically",
  },
  genderLocked: { code: "409201", status: 409, message: "Role attribute is locked after a confirmed change" },

  // market (§8)
  cannotJoin: { code: "409301", status: 409, message: "it seems you are owned by someone, contact your master" },
  joinSelf: { code: "400301", status: 400, message: "You cannot join yourself" },
  notAMaster: { code: "409302", status: 409, message: "Only a master or mistress can have sub-members" },
  hierarchyCycle: { code: "409303", status: 409, message: "You cannot join someone in your own hierarchy" },
  notYourSubmember: { code: "403301", status: 403, message: "Only their master can do this" },
  notOnMarket: { code: "409304", status: 409, message: "This member is not on the market" },
  mastersOnlyBid: { code: "403302", status: 403, message: "Only a master or mistress can bid" },
  alreadyLastBidder: { code: "409305", status: 409, message: "You already made the last bid" },
  bidSelf: { code: "400302", status: 400, message: "You cannot bid on yourself" },
  transferSelf: { code: "400303", status: 400, message: "You cannot transfer coins to yourself" },
  wholeCoinsOnly: { code: "400304", status: 400, message: "M coins move in whole coins: the amount must be a multiple of 100" },
  insufficientCoins: { code: "409306", status: 409, message: "Not enough M coins" },
  transferKeyReused: { code: "409307", status: 409, message: "This request id was already used for a different transfer" },

  // tasks and albums
  ownTask: { code: "403801", status: 403, message: "You cannot take up your own task" },
  taskAlreadyTaken: { code: "409801", status: 409, message: "You have already taken up this task" },
  notMissionOwner: { code: "403802", status: 403, message: "Only the member who took up this mission can do this" },
  notMissionReviewer: { code: "403803", status: 403, message: "Only the task's creator can review this mission" },
  missionWrongState: { code: "409802", status: 409, message: "The mission is not in a state that allows this" },
  albumKeyInvalid: { code: "403804", status: 403, message: "Wrong secret key" },
  notAlbumOwner: { code: "403805", status: 403, message: "Only the album's owner can do this" },
  albumFileNotAllowed: { code: "400801", status: 400, message: "This file cannot be added to this album" },
  grantSelf: { code: "400802", status: 400, message: "You already own this album" },
  albumNotKeyed: { code: "409803", status: 409, message: "Only albums with a secret key can be shared with named members" },
  albumKeyTooShort: { code: "400803", status: 400, message: "The secret key must be at least 8 characters" },
  albumKeyInAddress: { code: "400804", status: 400, message: "Send the secret key in the request body, never in the address" },
  albumKeyBudget: { code: "429801", status: 429, message: "Too many wrong keys for this album, please try again in an hour" },

  // social
  cannotTargetSelf: { code: "400601", status: 400, message: "You cannot do this to yourself" },
  geohashMismatch: { code: "400602", status: 400, message: "The geohash does not match the coordinates" },
  notFlameHolder: { code: "403601", status: 403, message: "Only the flame holder can do this" },
  noFriendRequest: { code: "409601", status: 409, message: "There is no pending friend request from this member" },
  locationMissing: { code: "409602", status: 409, message: "Share your location first to see who is nearby" },
  // README Decisions "Verification": a member asks the flame holder once; verified members need not ask.
  alreadyVerified: { code: "409603", status: 409, message: "You are already verified" },
  verificationPending: { code: "409604", status: 409, message: "Your verification request is already waiting for the flame holder" },

  // moderation (README Decisions "Moderation")
  alreadyAppealed: { code: "409611", status: 409, message: "You have already appealed this decision" },
  alreadyOperator: { code: "409612", status: 409, message: "This member is already an operator" },
  avatarTakenDown: { code: "409613", status: 409, message: "This picture was taken down by a moderator; choose another" },

  // profiles and media
  imageNotOwned: { code: "400501", status: 400, message: "The image must be one of your own uploads" },
  underage: { code: "400502", status: 400, message: "Members must be 18 or older" },
  badCoordinates: { code: "400503", status: 400, message: "Coordinates must be latitude,longitude within range" },
  uploadMissing: { code: "400504", status: 400, message: "Choose an image to upload" },
  avatarNotSquare: { code: "400505", status: 400, message: "Avatar must be square" },
  cannotRateOwnPhoto: { code: "403501", status: 403, message: "You cannot rate your own photo" },
  photoNotFound: { code: "404501", status: 404, message: "Photo not found" },
  characterNotFound: { code: "404502", status: 404, message: "Preference not found" },
  alreadyRated: { code: "409501", status: 409, message: "You have already rated this photo" },

  // ai (§8)
  aiEnglishOnly: { code: "400401", status: 400, message: "English only - AI training room only support English command" },

  // home, feedback and ai room
  aiRoomOnly: { code: "403901", status: 403, message: "The AI training room is open to members with kycStatus 9 only" },
  aiTooManyImages: { code: "429901", status: 429, message: "Too many AI images at once, please wait a few minutes" },
  aiGenerationFailed: { code: "500901", status: 500, message: "The AI image could not be created, please try another prompt" },

  // chat
  chatEmptyMessage: { code: "400701", status: 400, message: "Message cannot be empty" },
  chatPrivateNeedsRecipient: { code: "400702", status: 400, message: "A private message needs a recipient" },
  chatNotToSelf: { code: "400703", status: 400, message: "You cannot send a private message to yourself" },
  chatNoPrivateReplyToOwnNote: { code: "400704", status: 400, message: "You cannot private-reply to your own note" },
  chatNotEditable: { code: "400705", status: 400, message: "Only text messages can be edited" },
  chatNotAuthor: { code: "403701", status: 403, message: "Only the author can change this message" },
  chatImageNeedsKyc: { code: "403702", status: 403, message: "Feature limited: sending images in this chatroom requires verification first" },
  chatRequestIdReused: { code: "409701", status: 409, message: "This requestId was already used for another chatroom" },
  chatPrivateImageRequired: { code: "400706", status: 400, message: "Images in private messages must be uploaded as private images" },
  chatPrivateImageInPublic: { code: "400707", status: 400, message: "A private image can only be sent in a private message" },
  chatPrivateImageNotOwned: { code: "400708", status: 400, message: "The image must be your own private upload, not yet sent" },

  // who sees my connections (README Decisions "Who sees my connections")
  connectionsHidden: { code: "403621", status: 403, message: "This member keeps their connections private" },
  // muted words (README Decisions "Muted words")
  mutedWordsFull: { code: "409631", status: 409, message: "You can mute at most 100 words or phrases; remove one first" },
  // end-to-end keys (README Decisions "Verifiable end-to-end keys")
  e2eTooManyDevices: { code: "409731", status: 409, message: "Too many devices hold your message keys: remove one in Settings first" },
  // collectibles and the daily lottery (README Decisions "Collectibles and the daily lottery")
  collectibleAlreadyMinted: { code: "409391", status: 409, message: "This photo is already a collectible" },
  collectibleNotForSale: { code: "409392", status: 409, message: "This edition is not for sale any more" },
  collectiblePriceChanged: { code: "409393", status: 409, message: "The price changed; check it and confirm again" },
  collectibleOwnEdition: { code: "400391", status: 400, message: "You already own this edition" },
  collectibleRequestReused: { code: "409394", status: 409, message: "This request id was already used for something else" },
  lotteryAlreadyEntered: { code: "409395", status: 409, message: "You have already entered today's draw" },
  lotteryNotEligible: { code: "403391", status: 403, message: "The daily draw is open to members with an approved avatar whose account is at least 7 days old" },
  // card payments and card binding (README Decisions "Card payments")
  cardPaymentsOff: { code: "404811", status: 404, message: "Card payments are not available" },
  cardPackageUnknown: { code: "400811", status: 400, message: "There is no such coin package" },
  cardWebhookInvalid: { code: "400812", status: 400, message: "The payment notification could not be verified" },
  cardProviderFailed: { code: "502811", status: 502, message: "The payment provider could not be reached, please try again" },
  e2eTooManyLinkedKeys: { code: "409732", status: 409, message: "This device already holds as many older message keys as it can" },
  // creator profiles (README Decisions "DNA pairing and creator profiles")
  creatorLogoNotOwned: { code: "400511", status: 400, message: "A link's logo must be an image you uploaded as a logo" },
  // LINE login, bind, unbind (README Decisions "LINE login")
  lineNotConfigured: { code: "404131", status: 404, message: "Signing in with LINE is not available here" },
  lineStateInvalid: { code: "400131", status: 400, message: "This LINE sign-in has expired or was already used; please start again" },
  lineSignInFailed: { code: "401131", status: 401, message: "LINE could not confirm who you are; please try again" },
  lineAlreadyBound: { code: "409131", status: 409, message: "This LINE account is already linked to another member" },
  lineMemberHasBinding: { code: "409132", status: 409, message: "Your account is already linked to a LINE account; unlink it first" },
  lineUnbindNeedsPassword: { code: "409133", status: 409, message: "Your account has no password: unlinking LINE would leave no way to log in" },
  lineNotBound: { code: "404132", status: 404, message: "No LINE account is linked" },
  collectibleDailyLimit: { code: "409396", status: 409, message: "You can spend at most 100 M coins a day on collectibles" },
  // deleting an account that signs in with LINE only (README Decisions "LINE login")
  lineRecentSignInRequired: { code: "403131", status: 403, message: "Your account signs in with LINE: sign in with LINE again, then delete it within 10 minutes" },
} as const satisfies Record<string, { code: string; status: number; message: string }>;

export type ErrorName = keyof typeof errors;
export type CatalogueEntry = (typeof errors)[ErrorName];
