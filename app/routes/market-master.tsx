import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/market-master";
import type { Hierarchy, HierarchyHistoryItem, SubmemberList, SubmemberNode } from "../../worker/contract/market";
import { Avatar } from "../components/avatar";
import { callApi, loadApi, requireSessionCookie } from "../lib/api.server";
import { MasterLink } from "../features/market/market-sections";
import { ProfileSubmembers } from "../features/market/profile-submembers";
import { pageTitle } from "../i18n/page-title";
import { LocalTime } from "../i18n/use-format";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "market:title") }];

/** market/{masterMemberNo}: the master, their sub-members (join, sell, free), the hierarchy and its history. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireSessionCookie(request);
  const p = params.projectCode.toUpperCase();
  const code = encodeURIComponent(params.masterMemberNo);
  const list = await loadApi<SubmemberList>(context, request, `/sns/sub-members/${p}/${code}`, { private: true });
  const [tree, history] = await Promise.all([
    callApi<Hierarchy>(context, request, `/sns/hierarchy/${p}/${code}`, { private: true }),
    callApi<HierarchyHistoryItem[]>(context, request, `/sns/hierarchy/${p}/${code}/history`, { private: true }),
  ]);
  return { master: list.master, tree: "info" in tree ? tree.info : null, history: "info" in history ? history.info : [] };
}

function TreeNodes({ nodes, projectCode }: { nodes: SubmemberNode[]; projectCode: string }) {
  if (nodes.length === 0) return null;
  return (
    <ul className="tree">
      {nodes.map((node) => (
        <li key={node.profile.simpleCode}>
          <span className="tree-node">
            <Avatar profile={node.profile} size={28} />
            <MasterLink projectCode={projectCode} profile={node.profile} />
          </span>
          <TreeNodes nodes={node.subNodes} projectCode={projectCode} />
        </li>
      ))}
    </ul>
  );
}

export default function MarketMaster({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("market");
  const projectCode = params.projectCode.toLowerCase();
  const { master, tree, history } = loaderData;
  return (
    <main className="page market">
      <p>
        <Link to={`/${projectCode}/market`}>← {t("back")}</Link>
      </p>
      <div className="master-head">
        <Avatar profile={master} size={88} link />
        <div>
          <h1>{master.nickname || master.simpleCode}</h1>
          <p className="muted">{t(`role.${master.multiGender ?? 0}`)}</p>
          {master.introduction && <p className="master-intro">{master.introduction}</p>}
        </div>
      </div>
      <ProfileSubmembers projectCode={projectCode} memberNo={master.simpleCode} multiGender={master.multiGender} />
      {tree && (tree.masters.length > 0 || tree.subNodes.length > 0) && (
        <section className="section" aria-labelledby="hierarchy">
          <h2 id="hierarchy">{t("hierarchy.title")}</h2>
          {tree.masters.length > 0 && (
            <p className="muted">
              {t("hierarchy.masters")}{" "}
              {tree.masters.map((m, i) => (
                <span key={m.simpleCode}>
                  {i > 0 && " ← "}
                  <MasterLink projectCode={projectCode} profile={m} />
                </span>
              ))}
            </p>
          )}
          <TreeNodes nodes={tree.subNodes} projectCode={projectCode} />
        </section>
      )}
      {history.length > 0 && (
        <section className="section" aria-labelledby="hierarchy-history">
          <h2 id="hierarchy-history">{t("history.title")}</h2>
          <ol className="history">
            {history.map((h) => (
              <li key={h.idHierarchyHistory}>
                <LocalTime value={h.dateAdd} /> · {t(`history.${h.event}`, { name: h.parentProfile?.nickname ?? "—" })}
              </li>
            ))}
          </ol>
        </section>
      )}
    </main>
  );
}
