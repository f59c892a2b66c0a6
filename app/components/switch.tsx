import type { ComponentProps } from "react";

/**
 * An on/off switch: a button with the ARIA switch role (Space and Enter toggle it, a `<label>` around it or pointing
 * at its `id` names and clicks it), styled by `data-state` like the rest of the app's controls. Not Radix's Switch:
 * that one keeps its button and size in state set from ref callbacks and a layout effect, which at hydration forced a
 * synchronous re-render (with every first effect of the page) into the task of hydration's commit (README Decisions
 * "Lighter main pages").
 */
export function Switch({
  checked,
  onCheckedChange,
  className = "switch",
  thumbClassName = "switch-thumb",
  ...props
}: Omit<ComponentProps<"button">, "onClick" | "role" | "type" | "children"> & {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  thumbClassName?: string;
}) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button type="button" role="switch" aria-checked={checked} data-state={state} className={className} onClick={() => onCheckedChange(!checked)} {...props}>
      <span className={thumbClassName} data-state={state} />
    </button>
  );
}
