import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogClose } from "../../components/dialog";
import { fairPick } from "../../../worker/contract/home.constants";

/**
 * §2 training roulette (opened by `?showRoulette=true`): a tap spins the wheel to an entry chosen
 * uniformly at random (crypto.getRandomValues with rejection sampling), then shows it.
 */
export function Roulette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation("home");
  const entries = t("roulette.entries", { returnObjects: true }) as string[];
  const [turn, setTurn] = useState(0);
  const [result, setResult] = useState<number | null>(null);
  const [spinning, setSpinning] = useState(false);
  const slice = 360 / entries.length;

  function spin() {
    if (spinning) return;
    const index = fairPick(entries.length);
    // Several full turns, then stop with the chosen slice under the pointer at the top.
    const target = turn - (turn % 360) + 360 * 4 + (360 - (index * slice + slice / 2));
    setTurn(target);
    setSpinning(true);
    setResult(null);
    window.setTimeout(() => {
      setSpinning(false);
      setResult(index);
    }, matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 2200);
  }

  return (
    <Dialog
      className="dialog roulette-dialog"
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t("roulette.title")}
      description={t("roulette.hint")}
      descriptionClassName="muted"
    >
      {/* The wheel is a picture (a tap on it spins too); the hub is the control, named by what it shows. */}
      <div className="roulette-wheel-wrap">
        <span className="roulette-pointer" aria-hidden="true">▼</span>
        <svg viewBox="-100 -100 200 200" className="roulette-wheel" style={{ transform: `rotate(${turn}deg)` }} aria-hidden="true" onClick={spin}>
          {entries.map((entry, i) => {
            const a0 = ((i * slice - 90) * Math.PI) / 180;
            const a1 = (((i + 1) * slice - 90) * Math.PI) / 180;
            return (
              <path
                key={entry}
                d={`M0 0 L${95 * Math.cos(a0)} ${95 * Math.sin(a0)} A95 95 0 0 1 ${95 * Math.cos(a1)} ${95 * Math.sin(a1)} Z`}
                fill={i % 2 === 0 ? "var(--accent)" : "var(--accent-2)"}
                opacity={0.55 + (i % 3) * 0.15}
                stroke="var(--surface)"
              />
            );
          })}
          {entries.map((entry, i) => {
            const a = (((i + 0.5) * slice - 90) * Math.PI) / 180;
            return (
              <text key={entry} x={68 * Math.cos(a)} y={68 * Math.sin(a)} textAnchor="middle" dominantBaseline="middle" fontSize="12" fill="#fff">
                {i + 1}
              </text>
            );
          })}
        </svg>
        <button type="button" className="roulette-hub" onClick={spin} disabled={spinning}>
          {result === null ? t("roulette.spin") : t("roulette.again")}
        </button>
      </div>
      <p className="roulette-result" aria-live="polite">
        {result !== null ? t("roulette.result", { entry: `${result + 1}. ${entries[result]}` }) : "\u00a0"}
      </p>
      <div className="dialog-actions">
        <DialogClose>{t("common:close")}</DialogClose>
      </div>
    </Dialog>
  );
}
