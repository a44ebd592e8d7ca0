import { Alert, Button, Title } from "@mantine/core";
import { IconAlertCircle, IconArrowLeft } from "@tabler/icons-react";
import { Link } from "react-router";

interface LoadErrorProps {
  title: string;
  message: string;
  /** Where the way back leads, and what it says. */
  back: { to: string; label: string };
}

/** A record that could not be shown (missing or failed): why, as the page's heading, and a way back. */
export function LoadError({ title, message, back }: LoadErrorProps) {
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={18} />}
      title={
        <Title order={1} size="h4">
          {title}
        </Title>
      }
    >
      {message}
      <Button
        component={Link}
        to={back.to}
        variant="default"
        leftIcon={<IconArrowLeft size={16} />}
        mt="md"
        display="flex"
      >
        {back.label}
      </Button>
    </Alert>
  );
}
