// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MantineProvider } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { DeliverySettingsForm } from "./delivery-settings-form";
import { deliveryProject } from "./test-project";

afterEach(cleanup);

const project = (language: Project["delivery"]["language"]) => deliveryProject({ language }, 4);

function setup(p: Project) {
  const onSave = vi.fn(async () => p);
  render(
    <MantineProvider>
      <DeliverySettingsForm project={p} saving={false} onSave={onSave} studioLanguage="de" />
    </MantineProvider>,
  );
  return { onSave, user: userEvent.setup(), select: screen.getByLabelText("Client language") as HTMLSelectElement };
}

describe("the project's client language", () => {
  it("offers the studio's language first, by name, then each language by its own name", () => {
    const { select } = setup(project(null));
    const options = [...select.options].map((option) => [option.value, option.textContent, option.lang]);
    expect(options[0]).toEqual(["", "Studio default (Deutsch)", ""]);
    expect(options).toContainEqual(["ar", "العربية", "ar"]);
    expect(options).toContainEqual(["pt-BR", "Português (Brasil)", "pt-BR"]);
    expect(options).toHaveLength(14);
    expect(select.value).toBe("");
  });

  it("sends the chosen language alone, and null to go back to the studio's", async () => {
    const { onSave, user, select } = setup(project("fr"));
    expect(select.value).toBe("fr");
    await user.selectOptions(select, "ja");
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ language: "ja" }, 4);
    await user.selectOptions(select, "");
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ language: null }, 4);
  });
});
