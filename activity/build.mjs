// Builds the Activity's front end (src/) into one script and one style sheet, the files the
// bot serves (bot/web/activity/static/, committed so that `pip install` alone runs the bot).
// esbuild bundles @discord/embedded-app-sdk from node_modules; the output depends only on the
// sources and the locked versions (no timestamps, no absolute paths), so CI can build it again
// and compare (tests/bot/web/test_activity_bundle.py). Usage: node build.mjs [OUTDIR]
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.join(here, "..", "bot", "web", "activity", "static");
const banner = "/* The cribbage bot's Activity, built from activity/src by activity/build.sh: do not edit. */";

await build({
  absWorkingDir: here,
  entryPoints: { app: "src/main.js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["chrome100", "firefox100", "safari15"],
  legalComments: "eof",
  charset: "utf8",
  sourcemap: false,
  banner: { js: banner },
  outdir,
  logLevel: "warning",
});
await build({
  absWorkingDir: here,
  entryPoints: { app: "src/app.css" },
  bundle: true,
  minify: true,
  target: ["chrome100", "firefox100", "safari15"],
  charset: "utf8",
  banner: { css: banner },
  outdir,
  logLevel: "warning",
});
