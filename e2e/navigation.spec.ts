import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken, create, getJson } from "./api";
import { launchBrowser, newPage, screenshot, signIn } from "./browser";

interface Named {
  id: number;
  name: string;
}

describe("navigating the app", () => {
  let browser: Browser;
  const clients: Named[] = [];
  const projects: Named[] = [];
  let token: string;

  beforeAll(async () => {
    token = await adminToken();
    for (let i = 1; i <= 6; i++)
      clients.push(await create<Named>(token, "clients", { name: `Navigation Client ${i}` }));
    for (let i = 1; i <= 5; i++) {
      projects.push(
        await create<Named>(token, "projects", { name: `Navigation Project ${i}`, clientId: clients[0].id }),
      );
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const navigation = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });

  it("lists the 4 newest projects and the 5 newest clients under Recent and opens one", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, inject("adminEmail"), inject("adminPassword"));
    await navigation(page).getByRole("link", { name: "Navigation Project 5" }).waitFor();

    const projectLinks = navigation(page).getByRole("link", { name: /^Navigation Project/ });
    await expect(projectLinks.allTextContents()).resolves.toEqual([5, 4, 3, 2].map((n) => `Navigation Project ${n}`));
    // Polled: the recent clients are a list of their own, answered after the projects' or before.
    const clientLinks = navigation(page).getByRole("link", { name: /^Navigation Client/ });
    await expect
      .poll(() => clientLinks.allTextContents())
      .toEqual([6, 5, 4, 3, 2].map((n) => `Navigation Client ${n}`));

    await navigation(page).getByRole("link", { name: "Navigation Project 3" }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projects[2].id}`);
    await navigation(page).getByRole("link", { name: "Navigation Client 6" }).click();
    await page.waitForURL((url) => url.pathname === `/clients/${clients[5].id}`);
    await context.close();
  });

  it("shows the totals on the dashboard and sends /clients and /projects to their full lists", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, inject("adminEmail"), inject("adminPassword"));

    // Other journeys share this server, so the totals are whatever the API counts now.
    const stats = await getJson<{ clientCount: number; projectCount: number }>(token, "dashboard/stats");
    expect(stats.clientCount).toBeGreaterThanOrEqual(clients.length);
    const totalClients = page.locator(".mantine-Card-root").filter({ hasText: "Total Clients" });
    await totalClients.getByText(String(stats.clientCount), { exact: true }).waitFor();
    const activeProjects = page.locator(".mantine-Card-root").filter({ hasText: "Active Projects" });
    await activeProjects.getByText(String(stats.projectCount), { exact: true }).waitFor();
    await page.getByText("Storage Usage").waitFor();
    // The figures are all-time ones, and say so (the spec's "Monthly overview" did not describe them).
    await page.getByText("All-time overview").waitFor();
    await screenshot(page, "dashboard-with-data");

    await page.goto("/clients");
    await page.waitForURL((url) => url.pathname === "/clients/all");
    await page.getByRole("heading", { name: "All Clients" }).waitFor();

    await navigation(page).getByRole("link", { name: "All Projects" }).click();
    await page.waitForURL((url) => url.pathname === "/projects/all");
    await page.getByRole("heading", { name: "All Projects" }).waitFor();

    await page.goto("/projects");
    await page.waitForURL((url) => url.pathname === "/projects/all");
    await context.close();
  });

  it("sends a page past the end to the last page, and an unknown record to a not-found page with a way back", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, inject("adminEmail"), inject("adminPassword"));
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();

    await page.goto("/projects/all?currentPage=99");
    await page.waitForURL((url) => url.searchParams.get("currentPage") !== "99");
    const lastPage = Number(new URL(page.url()).searchParams.get("currentPage"));
    const { projectCount } = await getJson<{ projectCount: number }>(token, "dashboard/stats");
    expect(lastPage).toBe(Math.max(1, Math.ceil(projectCount / 10)));
    await expect(page.getByText("No projects found.").count()).resolves.toBe(0);
    // The last page shows rows (on a single page, this journey's own projects among them).
    if (lastPage === 1) await page.getByRole("link", { name: "Navigation Project 1" }).first().waitFor();
    else await page.getByRole("button", { name: `Page ${lastPage}` }).waitFor();

    await page.goto("/projects/99999999");
    await page.getByRole("heading", { level: 1, name: "Error loading project" }).waitFor();
    await page.getByText("Project not found or failed to load.").waitFor();
    await page.getByRole("link", { name: "Back to All Projects" }).click();
    await page.getByRole("heading", { name: "All Projects" }).waitFor();

    await page.goto("/clients/99999999");
    await page.getByRole("heading", { level: 1, name: "Error loading client" }).waitFor();
    await page.getByRole("link", { name: "Back to All Clients" }).click();
    await page.getByRole("heading", { name: "All Clients" }).waitFor();
    await context.close();
  });
});
