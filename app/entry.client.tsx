import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// Intl loads its locale data on first use (~20 ms on a phone, ~80 ms at Lighthouse's 4x slowdown), inside whichever
// component first formats a number or a date during hydration. Loading it in a task of its own, before hydrating,
// keeps that render slice short; every page formats numbers or dates.
setTimeout(() => {
  new Intl.NumberFormat(document.documentElement.lang || undefined).format(1);
  setTimeout(() => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    });
  });
});
