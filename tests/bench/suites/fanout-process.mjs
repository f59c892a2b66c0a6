// The fan-out suite in a Node process of its own (run.mjs starts it): its sockets' timestamps are taken in a heap
// that has not just driven the API suite. argv[2]: JSON options; the results are written to `options.out`.
import { writeFileSync } from "node:fs";
import { bareSide, chatSide, runFanoutSuite } from "./fanout.mjs";

const options = JSON.parse(process.argv[2]);
const results = await runFanoutSuite({
  bare: bareSide(options.bareBase, "bench"),
  chat: options.chat ? chatSide(options.appBase, options.code, options.sessions) : null,
  sizes: options.sizes,
  messages: options.messages,
  sustainSeconds: options.sustainSeconds,
});
writeFileSync(options.out, JSON.stringify(results));
