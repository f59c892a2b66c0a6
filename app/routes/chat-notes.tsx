import type { Route } from "./+types/chat-notes";
import type { ChatMessage, ChatThread } from "../../worker/contract/chat";
import { NotesPage } from "../features/chat/notes-page";
import { loadApi, sessionHeaders } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:noteTitle") }];

/** §2 notes/{idChatroomMessage}: visitors may view notes (§6), members also reply. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!/^\d{1,15}$/.test(params.idChatroomMessage)) throw new Response("Not found", { status: 404 });
  const project = params.projectCode.toUpperCase();
  const note = sessionHeaders(request)
    ? await loadApi<ChatMessage & { threads?: ChatThread[] }>(context, request, `/sns/chatroom/messages/${params.idChatroomMessage}`, { private: true })
    : await loadApi<ChatMessage & { threads?: ChatThread[] }>(context, request, `/sns/chatroom/messages/${params.idChatroomMessage}?project=${project}`);
  return { note };
}

export default function NotesRoute({ loaderData, params }: Route.ComponentProps) {
  return (
    <main className="page">
      <NotesPage projectCode={params.projectCode.toLowerCase()} note={loaderData.note} />
    </main>
  );
}
