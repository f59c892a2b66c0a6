import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { MUTED_WORD_MAX_LENGTH, MUTED_WORDS_MAX, type MutedWord } from "../../../worker/contract/muted-words.constants";
import { useToast } from "../../components/toast";
import { LocalTime } from "../../i18n/use-format";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

const DURATIONS = ["forever", "24h", "7d", "30d"] as const;

/**
 * Adds one muted word or phrase for a chosen time or forever (README Decisions "Muted words"). Used by Settings and by
 * a chat message's "Mute words…" dialog; the server trims, bounds and matches it.
 */
export function MutedWordForm({ onAdded, idPrefix }: { onAdded: (word: MutedWord) => void; idPrefix: string }) {
  const { t } = useTranslation("muted");
  const toast = useToast();
  const [phrase, setPhrase] = useState("");
  const [duration, setDuration] = useState<(typeof DURATIONS)[number]>("forever");
  const [busy, setBusy] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    if (!phrase.trim()) return;
    setBusy(true);
    const body = await settings.addMutedWord(phrase, duration);
    setBusy(false);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setPhrase("");
    toast(t("added", { phrase: body.info.phrase }), "success");
    onAdded(body.info);
  }

  return (
    <form className="muted-words-form" onSubmit={(event) => void add(event)}>
      <label className="field" htmlFor={`${idPrefix}-phrase`}>
        <span>{t("phrase")}</span>
        <input id={`${idPrefix}-phrase`} value={phrase} onChange={(e) => setPhrase(e.target.value)} maxLength={MUTED_WORD_MAX_LENGTH} required autoComplete="off" />
      </label>
      <label className="field" htmlFor={`${idPrefix}-duration`}>
        <span>{t("duration")}</span>
        <select id={`${idPrefix}-duration`} value={duration} onChange={(e) => setDuration(e.target.value as (typeof DURATIONS)[number])}>
          {DURATIONS.map((d) => (
            <option key={d} value={d}>
              {t(`durations.${d}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button button-primary" disabled={busy}>
        {t("add")}
      </button>
    </form>
  );
}

/** Settings: the member's muted words, read and written by the member only. `#muted-words` is linked from chat. */
export function MutedWordsSection() {
  const { t } = useTranslation("muted");
  const toast = useToast();
  const [words, setWords] = useState<MutedWord[] | null>(null);

  useEffect(() => {
    void (async () => {
      const body = await settings.mutedWords();
      setWords(isOk(body) ? body.info : []);
    })();
  }, []);

  async function remove(word: MutedWord) {
    const body = await settings.removeMutedWord(word.idMutedWord);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setWords((list) => (list ?? []).filter((w) => w.idMutedWord !== word.idMutedWord));
    toast(t("removed"), "delete");
  }

  return (
    <section className="card" id="muted-words" aria-labelledby="settings-muted-words">
      <h2 id="settings-muted-words">{t("title")}</h2>
      <p className="muted">{t("hint")}</p>
      <MutedWordForm idPrefix="settings-muted" onAdded={(word) => setWords((list) => [...(list ?? []).filter((w) => w.idMutedWord !== word.idMutedWord), word])} />
      {words !== null && (
        <>
          <p className="muted">{t("count", { count: words.length, max: MUTED_WORDS_MAX })}</p>
          {words.length === 0 ? (
            <p className="empty-state">{t("empty")}</p>
          ) : (
            <ul className="muted-words-list" aria-label={t("title")}>
              {words.map((word) => (
                <li key={word.idMutedWord} className="muted-words-item">
                  <span className="muted-words-text">
                    <span className="muted-words-phrase">{word.phrase}</span>
                    <span className="muted">
                    {word.expiresAt ? (
                      <>
                        {t("until")} <LocalTime value={word.expiresAt} preset="shortDateTime" />
                      </>
                    ) : (
                      t("forever")
                    )}
                    </span>
                  </span>
                  <button type="button" className="button" aria-label={t("removeNamed", { phrase: word.phrase })} onClick={() => void remove(word)}>
                    {t("remove")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
