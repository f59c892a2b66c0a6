// Card payments' provider calls reach the local fake in every API test file (README Decisions "Card payments").
import { installFakeStripe } from "./fake-stripe";

installFakeStripe();
