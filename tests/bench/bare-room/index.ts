import { getServerByName, routePartykitRequest, Server, type Connection } from "partyserver";

/**
 * The fan-out baseline: a partyserver room that only re-sends what it receives, with no auth, storage or parsing.
 * Served by the same wrangler as the app, in the same bench run, so its figures are the floor for the chat room.
 * `POST /broadcast/<room>` plays the API's part (an HTTP call that reaches the room by RPC, then fans out).
 */
export class BareRoom extends Server {
  static options = { hibernate: true };

  onMessage(_connection: Connection, message: string | ArrayBuffer | ArrayBufferView) {
    this.broadcast(message);
  }

  relay(message: string) {
    this.broadcast(message);
  }
}

// This worker's only binding; cast where partyserver expects the app's generated Env.
type BareEnv = { BareRoom: DurableObjectNamespace<BareRoom> };

export default {
  async fetch(request: Request, env: BareEnv): Promise<Response> {
    const url = new URL(request.url);
    const broadcast = url.pathname.match(/^\/broadcast\/([\w-]+)$/);
    if (broadcast && request.method === "POST") {
      const room = await getServerByName(env.BareRoom, broadcast[1]!);
      await room.relay(await request.text());
      return new Response("ok");
    }
    return (await routePartykitRequest(request, env as unknown as Env)) ?? new Response("Not found", { status: 404 });
  },
};
