import type { ComponentType, ReactNode } from "react";
import { Box } from "@mantine/core";
import { MAIN_ID, SkipLink } from "./skip-link";

interface AppLayoutProps {
  Header: ComponentType;
  Sider: ComponentType;
  children: ReactNode;
}

/**
 * Refine's themed layout (navigation beside a column of header and page), except that the column
 * may shrink below its content's width: wide tables scroll inside their cards instead of pushing
 * the page wider than a phone's screen.
 */
export function AppLayout({ Header, Sider, children }: AppLayoutProps) {
  return (
    <Box sx={{ display: "flex" }}>
      <SkipLink />
      <Sider />
      <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minWidth: 0 }}>
        <Header />
        <Box
          component="main"
          id={MAIN_ID}
          tabIndex={-1}
          sx={(theme) => ({ padding: theme.spacing.sm, minWidth: 0, "&:focus": { outline: "none" } })}
        >
          {children}
        </Box>
      </Box>
    </Box>
  );
}
