import { NumberInput } from "@mantine/core";
import { FAVOURITES_LIMIT_MAX } from "../../../../api/favourites";
import { t } from "../../i18n";

/** The 'Delivery' card's favourites limit: empty for none. */
export function FavouritesLimitInput({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <NumberInput
      label={t("favourites.favouritesLimit")}
      description={t("favourites.eachVisitorCanChooseUpTo")}
      placeholder={t("favourites.noLimit")}
      min={1}
      max={FAVOURITES_LIMIT_MAX}
      step={1}
      precision={0}
      value={value}
      onChange={onChange}
    />
  );
}
