import type { ComponentType, ReactNode } from "react";
import { Box } from "@mantine/core";

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
      <Sider />
      <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minWidth: 0 }}>
        <Header />
        <Box component="main" sx={(theme) => ({ padding: theme.spacing.sm, minWidth: 0 })}>
          {children}
        </Box>
      </Box>
    </Box>
  );
}
