import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// Hydration starts in a task of its own: evaluating the page's modules (React DOM's set-up among them) and React's
// first hydration work were one task of ~100 ms on a 4×-throttled phone. Hydrating in a transition then lets React
// render the page in slices between the browser's own tasks.
setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}, 0);
