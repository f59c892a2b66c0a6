import { FakeStripe } from "../../support/fake-stripe";
import { serveFake } from "./serve-fake";

/**
 * The local fake card provider for the browser journeys (README Decisions "Card payments"): the same FakeStripe the API
 * tests use, served over HTTP on E2E_PORT + 100 (the build points STRIPE_API_BASE there, vite.config.ts). Its hosted
 * page pays or saves a card, delivers the signed webhook to the preview's worker, then redirects back.
 */
export default async function setup() {
  const appPort = Number(process.env.E2E_PORT ?? 4317);
  const { fake, close } = await serveFake(appPort + 100, (origin) => new FakeStripe(origin));
  fake.deliver = async (signed) => {
    const response = await fetch(`http://127.0.0.1:${appPort}/api/v7/public/core/card/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signed.signature },
      body: signed.payload,
    });
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
  };
  return close;
}
