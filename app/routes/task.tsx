import { Tabs } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { redirect, useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/task";
import { TASK_PATHS } from "../../worker/contract/tasks.constants";
import type { Mission, TaskPage } from "../../worker/contract/tasks";
import { loadApi } from "../lib/api.server";
import { CreateTaskDialog } from "../features/tasks/task-dialogs";
import { AllTasks, MissionList } from "../features/tasks/task-lists";
import { TOAST_DURATION } from "../components/toast";
import { pageTitle } from "../i18n/page-title";
import "../features/tasks/tasks.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "tasks:title") }];

const TABS = ["0", "1", "2"] as const;

/** §2 task/{tab}: 0 all tasks, 1 my missions, 2 missions to review. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!TABS.includes(params.tab as (typeof TABS)[number])) throw redirect(`/${params.projectCode}/task/0`);
  const options = { private: true };
  if (params.tab === "0") return { tab: "0" as const, tasks: (await loadApi<TaskPage>(context, request, `${TASK_PATHS.tasks}?pageSize=100`, options)).items, missions: [] };
  const path = params.tab === "1" ? TASK_PATHS.mine : TASK_PATHS.review;
  return { tab: params.tab as "1" | "2", tasks: [], missions: await loadApi<Mission[]>(context, request, path, options) };
}

export default function TaskRoute({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("tasks");
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [banner, setBanner] = useState<string | null>(null);
  const projectCode = params.projectCode;

  // §9: banners stay 5 s.
  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), TOAST_DURATION.banner);
    return () => clearTimeout(timer);
  }, [banner]);

  return (
    <main className="page stack">
      <div className="tasks-header">
        <h1>{t("title")}</h1>
        <CreateTaskDialog
          onCreated={(task) => {
            setBanner(t("create.success", { subject: task.subject }));
            if (loaderData.tab === "0") void revalidator.revalidate();
            else navigate(`/${projectCode}/task/0`);
          }}
        />
      </div>
      {banner && (
        <p role="status" className="task-banner">
          {banner}
        </p>
      )}
      <Tabs.Root value={loaderData.tab} onValueChange={(value) => navigate(`/${projectCode}/task/${value}`)}>
        <Tabs.List className="tasks-tabs-list" aria-label={t("tabs.label")}>
          <Tabs.Trigger className="tasks-tab" value="0">{t("tabs.all")}</Tabs.Trigger>
          <Tabs.Trigger className="tasks-tab" value="1">{t("tabs.mine")}</Tabs.Trigger>
          <Tabs.Trigger className="tasks-tab" value="2">{t("tabs.review")}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="0">
          {loaderData.tab === "0" && <AllTasks tasks={loaderData.tasks} projectCode={projectCode} onChanged={() => void revalidator.revalidate()} />}
        </Tabs.Content>
        <Tabs.Content value="1">{loaderData.tab === "1" && <MissionList missions={loaderData.missions} projectCode={projectCode} mode="mine" />}</Tabs.Content>
        <Tabs.Content value="2">{loaderData.tab === "2" && <MissionList missions={loaderData.missions} projectCode={projectCode} mode="review" />}</Tabs.Content>
      </Tabs.Root>
    </main>
  );
}
