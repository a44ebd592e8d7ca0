import { NumberInput } from "@mantine/core";
import { FAVOURITES_LIMIT_MAX } from "../../../../api/favourites";

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
      label="Favourites limit"
      description="Each visitor can choose up to this many photos. Leave empty for no limit."
      placeholder="No limit"
      min={1}
      max={FAVOURITES_LIMIT_MAX}
      step={1}
      precision={0}
      value={value}
      onChange={onChange}
    />
  );
}
