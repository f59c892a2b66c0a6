import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Character } from "../../../worker/contract/profiles";
import { useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { characterLabel } from "./profile-labels";
import * as profiles from "../../api/profiles-api";

/** The member's characters (§3): a tap checks or unchecks one; the server answers the whole list. */
export function MyCharactersSection({ memberId, initial }: { memberId: string; initial: Character[] }) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const [characters, setCharacters] = useState(initial);

  async function toggleCharacter(c: Character) {
    const body = await profiles.setCharacter(memberId, c.idCharacter, !c.checked);
    if ("info" in body) setCharacters(body.info);
    else toast(errorText(t, body), "error");
  }

  return (
    <section className="card stack" aria-labelledby="characters-heading">
      <h2 id="characters-heading">{t("my.characters")}</h2>
      <div className="filters" role="group" aria-labelledby="characters-heading">
        {characters.map((c) => (
          <button key={c.idCharacter} type="button" className="chip" aria-pressed={c.checked} onClick={() => void toggleCharacter(c)}>
            {characterLabel(t, c.title)}
          </button>
        ))}
      </div>
    </section>
  );
}
