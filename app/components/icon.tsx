/**
 * The app's pictures for navigation and headings, drawn as SVG instead of colour emoji (README Decisions "Icons, not
 * emoji, in the app's frame"): the first colour emoji of a page makes the browser load the emoji font before it can
 * lay the page out, the longest part of the first paint of the main pages. Members' own emoji (messages, reactions)
 * are theirs and stay text. Outlines in the text's colour, 24-unit grid.
 */
const PATHS = {
  chat: "M21 11.5a8.5 8.5 0 0 1-12.3 7.6L3.5 20.5l1.4-4.8A8.5 8.5 0 1 1 21 11.5z",
  speech: "M4 4h16v11H9l-5 4.5z",
  cup: "M4 9h13v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM17 10.5h1.5a2.5 2.5 0 0 1 0 5H17M8.5 3.5v2.5M12.5 3.5v2.5",
  image: "M3 5h18v14H3zM3 16.5l5-5 4.5 4.5 3-3 5.5 5.5M15.5 7.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z",
  wheel: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 3v18M3 12h18M5.6 5.6l12.8 12.8M18.4 5.6L5.6 18.4",
  alarm: "M12 21a8 8 0 1 0 0-16a8 8 0 1 0 0 16zM12 9v4l2.5 2M3 5.5l3-2.5M21 5.5l-3-2.5",
  flame: "M12 21.5c4 0 7-2.6 7-6.8 0-4.4-3.8-6.9-4-11.2-2.5 1.5-4.2 4-4.2 6.7-1.1-.8-1.6-2-1.8-3.3C7 8.9 5 11.7 5 14.7c0 4.2 3 6.8 7 6.8z",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z",
  palette: "M12 3a9 9 0 0 0 0 18c1 0 1.6-.7 1.6-1.5 0-.9-.7-1.3-.7-2.2 0-.9.7-1.6 1.6-1.6H17a4 4 0 0 0 4-4C21 6.8 17 3 12 3zM7.5 12h.01M9.5 7.5h.01M14.5 7.5h.01",
} as const;

export type IconName = keyof typeof PATHS;

export const isIconName = (name: string): name is IconName => Object.hasOwn(PATHS, name);

/** One icon, 1.15em square in the text's colour; decorative (the control or heading beside it carries the name). */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={className ? `icon ${className}` : "icon"} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
