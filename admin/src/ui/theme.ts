import type { MantineThemeOverride } from "@mantine/core";

// Refine's blue Mantine theme, declared here so the first load does not pull in @refinedev/mantine.
const fontFamily = [
  "Montserrat",
  "-apple-system",
  "BlinkMacSystemFont",
  '"Segoe UI"',
  "Roboto",
  '"Helvetica Neue"',
  "Arial",
  "sans-serif",
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
  '"Segoe UI Symbol"',
].join(",");

export const theme: MantineThemeOverride = {
  colorScheme: "light",
  fontFamily,
  headings: { fontFamily },
  colors: {
    primary: [
      "#E7F5FF",
      "#D0EBFF",
      "#A5D8FF",
      "#74C0FC",
      "#4DABF7",
      "#339AF0",
      "#228BE6",
      "#1C7ED6",
      "#1971C2",
      "#1864AB",
    ],
  },
  black: "#626262",
  primaryColor: "primary",
  defaultRadius: 6,
  components: {
    // No exit transition: a menu still fading out while a dialog opens from it leaves Mantine 5's
    // focus traps out of step, and the page stays aria-hidden after the dialog closes.
    Menu: { defaultProps: { transitionDuration: 0 } },
    // Dialogs never grow wider than a phone's screen.
    Modal: { styles: { modal: { maxWidth: "100%" } } },
  },
};
