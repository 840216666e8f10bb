/*
 * Active-low relay boards (most opto-isolated ones) energise on a low level. We invert ourselves
 * rather than use sysfs active_low because the kernel's direction "high"/"low" sets the raw line level
 * regardless of active_low (gpiolib-sysfs direction_store calls gpiod_direction_output_raw), and the
 * initial level is exactly what must be right so a board does not click on at start.
 */

export function levelFor(on: boolean, activeLow: boolean): 0 | 1 {
  return on !== activeLow ? 1 : 0;
}

/** The onoff direction that makes the line an output already at the OFF level. */
export function offDirection(activeLow: boolean): 'high' | 'low' {
  return levelFor(false, activeLow) === 1 ? 'high' : 'low';
}
