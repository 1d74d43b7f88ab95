// Debian's Chromium driven by playwright-core (no browser download), and the few steps every
// dashboard test takes: open a page, sign in, read a figure, check the width, take a picture.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM } from "./system-deps";

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../screenshots");
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * A fresh browser profile (no cookies) at `baseURL`. Content-security-policy violations, script
 * errors and failed requests of its pages are pushed to `problems`, for the tests to assert on.
 */
export async function openContext(
  browser: Browser,
  baseURL: string,
  problems: string[],
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  context.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`${message.location().url}: ${message.text()}`);
    }
  });
  context.on("weberror", (error) => problems.push(`script error: ${error.error().message}`));
  context.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText ?? "?";
    // A navigation that replaces a page still loading aborts the old page's requests.
    if (!reason.includes("ERR_ABORTED")) problems.push(`${request.url()} failed: ${reason}`);
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Clicks a form's submit button and waits for the page the form leads to (after any redirect);
 * resolves with the status of the form's own answer (a 303, or the page it rendered).
 */
export async function submit(page: Page, button: string): Promise<number> {
  const answer = page.waitForResponse(
    (res) => res.request().method() === "POST" && res.request().isNavigationRequest(),
  );
  const loaded = page.waitForEvent("load");
  await page.click(button);
  const [res] = await Promise.all([answer, loaded]);
  return res.status();
}

/** Fills and sends the tenant sign-in form; resolves with the status of its answer. */
export async function submitTenantSignIn(page: Page, apiId: string, secret: string): Promise<number> {
  await page.goto("/dashboard/login");
  await page.fill("#api_id", apiId);
  await page.fill("#secret", secret);
  return submit(page, "button[type=submit]");
}

export async function signInAdmin(page: Page, adminToken: string): Promise<number> {
  await page.goto("/admin/login");
  await page.fill("#token", adminToken);
  return submit(page, "button[type=submit]");
}

/** The text of the first element `selector` matches, once there is one. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().innerText()).trim();
}

/** A figure the pages mark with data-figure: its data-value when it has one, else its text. */
export async function figure(page: Page, name: string): Promise<string> {
  const element = page.locator(`[data-figure="${name}"]`).first();
  return (await element.getAttribute("data-value")) ?? (await element.innerText()).trim();
}

/** Numbers as the pages print them ("1,234"). */
export async function countFigure(page: Page, name: string): Promise<number> {
  return Number((await figure(page, name)).replace(/,/g, ""));
}

export async function sessionCookie(context: BrowserContext, name: "sg_tenant" | "sg_admin") {
  return (await context.cookies()).find((cookie) => cookie.name === name);
}

/** The page's width as laid out; more than the viewport means sideways scrolling. */
export function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
