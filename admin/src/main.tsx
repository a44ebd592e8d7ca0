import React from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { browserLanguage, isLanguage, setLanguage } from "./i18n";
import { signedInLanguage } from "./providers/session";

// The first screen in its language from the start: the signed-in user's as last seen, else the browser's.
const stored = signedInLanguage();
const render = () =>
  createRoot(document.getElementById("root")!).render(
    <React.StrictMode>
      <App />
    </React.StrictMode>,
  );
setLanguage(isLanguage(stored) ? stored : browserLanguage()).then(render, render);
