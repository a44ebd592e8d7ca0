import { useId, type ChangeEvent } from "react";
import { Input } from "@mantine/core";
import { IconChevronDown } from "@tabler/icons-react";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../../../api/client-languages";

interface Props {
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  /** Options listed before the languages, e.g. the studio's default (value ""). */
  before?: Array<{ value: string; label: string }>;
}

/**
 * The languages a client's gallery and mails can be in, each by its own name ('Deutsch',
 * 'العربية') and marked as that language, so a screen reader says it in it. A native select:
 * thirteen short names need no search, and phones show their own picker.
 */
export function ClientLanguageSelect({ label, description, value, onChange, before = [] }: Props) {
  const id = useId();
  return (
    <Input.Wrapper id={id} label={label} description={description}>
      <Input
        id={id}
        component="select"
        value={value}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.currentTarget.value)}
        rightSection={<IconChevronDown size={14} />}
        rightSectionWidth={32}
        styles={{ rightSection: { pointerEvents: "none" } }}
      >
        {before.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {SUPPORTED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code} dir="auto">
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </Input>
    </Input.Wrapper>
  );
}
