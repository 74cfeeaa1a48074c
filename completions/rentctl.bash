# bash completion for rentctl
# Generated from the command tree by `rentctl completion bash`; do not edit.
# Regenerate the checked-in copies with `npm run build && node scripts/gen-completions.mjs`.
#
# Install: source <(rentctl completion bash)   (in ~/.bashrc), or copy this file to
# ~/.local/share/bash-completion/completions/rentctl

# _rentctl_child PATH WORD: REPLY is the path of the subcommand WORD of PATH.
_rentctl_child() {
  case "$1|$2" in
    '|auth') REPLY='auth' ;;
    '|profile') REPLY='profile' ;;
    '|catalog') REPLY='catalog' ;;
    '|vehicle') REPLY='vehicle' ;;
    '|image') REPLY='image' ;;
    '|extra') REPLY='extra' ;;
    '|account') REPLY='account' ;;
    '|lint') REPLY='lint' ;;
    '|undo') REPLY='undo' ;;
    '|api') REPLY='api' ;;
    '|mcp') REPLY='mcp' ;;
    '|sandbox') REPLY='sandbox' ;;
    '|completion') REPLY='completion' ;;
    '|help') REPLY='help' ;;
    'auth|login') REPLY='auth login' ;;
    'auth|status') REPLY='auth status' ;;
    'auth|logout') REPLY='auth logout' ;;
    'auth|migrate') REPLY='auth migrate' ;;
    'auth|help') REPLY='auth help' ;;
    'profile|list') REPLY='profile list' ;;
    'profile|show') REPLY='profile show' ;;
    'profile|use') REPLY='profile use' ;;
    'profile|set') REPLY='profile set' ;;
    'profile|remove') REPLY='profile remove' ;;
    'profile|help') REPLY='profile help' ;;
    'catalog|setup') REPLY='catalog setup' ;;
    'catalog|currencies') REPLY='catalog currencies' ;;
    'catalog|locales') REPLY='catalog locales' ;;
    'catalog|segments') REPLY='catalog segments' ;;
    'catalog|brands') REPLY='catalog brands' ;;
    'catalog|models') REPLY='catalog models' ;;
    'catalog|equipments') REPLY='catalog equipments' ;;
    'catalog|years') REPLY='catalog years' ;;
    'catalog|classes') REPLY='catalog classes' ;;
    'catalog|transmissions') REPLY='catalog transmissions' ;;
    'catalog|benefits') REPLY='catalog benefits' ;;
    'catalog|features') REPLY='catalog features' ;;
    'catalog|options') REPLY='catalog options' ;;
    'catalog|protection-plans') REPLY='catalog protection-plans' ;;
    'catalog|delivery') REPLY='catalog delivery' ;;
    'catalog|fuel-policies') REPLY='catalog fuel-policies' ;;
    'catalog|distance-units') REPLY='catalog distance-units' ;;
    'catalog|payment-systems') REPLY='catalog payment-systems' ;;
    'catalog|payment-types') REPLY='catalog payment-types' ;;
    'catalog|extra-options') REPLY='catalog extra-options' ;;
    'catalog|help') REPLY='catalog help' ;;
    'vehicle|list') REPLY='vehicle list' ;;
    'vehicle|get') REPLY='vehicle get' ;;
    'vehicle|show') REPLY='vehicle get' ;;
    'vehicle|create') REPLY='vehicle create' ;;
    'vehicle|wizard') REPLY='vehicle wizard' ;;
    'vehicle|edit') REPLY='vehicle edit' ;;
    'vehicle|remove') REPLY='vehicle remove' ;;
    'vehicle|delete') REPLY='vehicle remove' ;;
    'vehicle|rm') REPLY='vehicle remove' ;;
    'vehicle|activate') REPLY='vehicle activate' ;;
    'vehicle|deactivate') REPLY='vehicle deactivate' ;;
    'vehicle|calendar') REPLY='vehicle calendar' ;;
    'vehicle|export') REPLY='vehicle export' ;;
    'vehicle|import') REPLY='vehicle import' ;;
    'vehicle|diff') REPLY='vehicle diff' ;;
    'vehicle|apply') REPLY='vehicle apply' ;;
    'vehicle|schema') REPLY='vehicle schema' ;;
    'vehicle|help') REPLY='vehicle help' ;;
    'image|upload') REPLY='image upload' ;;
    'image|help') REPLY='image help' ;;
    'extra|options') REPLY='extra options' ;;
    'extra|list') REPLY='extra list' ;;
    'extra|get') REPLY='extra get' ;;
    'extra|show') REPLY='extra get' ;;
    'extra|create') REPLY='extra create' ;;
    'extra|update') REPLY='extra update' ;;
    'extra|enable') REPLY='extra enable' ;;
    'extra|disable') REPLY='extra disable' ;;
    'extra|switch') REPLY='extra switch' ;;
    'extra|delete') REPLY='extra delete' ;;
    'extra|remove') REPLY='extra delete' ;;
    'extra|rm') REPLY='extra delete' ;;
    'extra|help') REPLY='extra help' ;;
    'account|export') REPLY='account export' ;;
    'account|diff') REPLY='account diff' ;;
    'account|apply') REPLY='account apply' ;;
    'account|schema') REPLY='account schema' ;;
    'account|help') REPLY='account help' ;;
    'sandbox|serve') REPLY='sandbox serve' ;;
    'sandbox|reset') REPLY='sandbox reset' ;;
    'sandbox|repair') REPLY='sandbox repair' ;;
    'sandbox|info') REPLY='sandbox info' ;;
    'sandbox|help') REPLY='sandbox help' ;;
    'completion|__complete') REPLY='completion __complete' ;;
    *) return 1 ;;
  esac
}

# _rentctl_commands PATH: REPLY lists the subcommands of PATH to offer.
_rentctl_commands() {
  case $1 in
    '') REPLY='auth profile catalog vehicle image extra account lint undo api mcp sandbox completion help' ;;
    'auth') REPLY='login status logout migrate help' ;;
    'profile') REPLY='list show use set remove help' ;;
    'catalog') REPLY='setup currencies locales segments brands models equipments years classes transmissions benefits features options protection-plans delivery fuel-policies distance-units payment-systems payment-types extra-options help' ;;
    'vehicle') REPLY='list get create wizard edit remove activate deactivate calendar export import diff apply schema help' ;;
    'image') REPLY='upload help' ;;
    'extra') REPLY='options list get create update enable disable switch delete help' ;;
    'account') REPLY='export diff apply schema help' ;;
    'sandbox') REPLY='serve reset repair info help' ;;
    *) REPLY='' ;;
  esac
}

# _rentctl_flags PATH: REPLY lists the flags of PATH, the global ones included.
_rentctl_flags() {
  case $1 in
    '') REPLY='-V --version -h --help' ;;
    'auth') REPLY='-h --help' ;;
    'auth login') REPLY='--with-token --no-verify --use --insecure-storage -h --help' ;;
    'auth status') REPLY='--no-verify -h --help' ;;
    'auth logout') REPLY='-h --help' ;;
    'auth migrate') REPLY='-h --help' ;;
    'profile') REPLY='-h --help' ;;
    'profile list') REPLY='-h --help' ;;
    'profile show') REPLY='-h --help' ;;
    'profile use') REPLY='-h --help' ;;
    'profile set') REPLY='-h --help' ;;
    'profile remove') REPLY='-h --help' ;;
    'catalog') REPLY='-h --help' ;;
    'catalog setup') REPLY='--segment -h --help' ;;
    'catalog currencies') REPLY='-h --help' ;;
    'catalog locales') REPLY='-h --help' ;;
    'catalog segments') REPLY='-h --help' ;;
    'catalog brands') REPLY='--segment -h --help' ;;
    'catalog models') REPLY='--segment --brand -h --help' ;;
    'catalog equipments') REPLY='--model --brand -h --help' ;;
    'catalog years') REPLY='-h --help' ;;
    'catalog classes') REPLY='--segment -h --help' ;;
    'catalog transmissions') REPLY='--segment -h --help' ;;
    'catalog benefits') REPLY='--segment -h --help' ;;
    'catalog features') REPLY='--segment -h --help' ;;
    'catalog options') REPLY='--segment -h --help' ;;
    'catalog protection-plans') REPLY='-h --help' ;;
    'catalog delivery') REPLY='-h --help' ;;
    'catalog fuel-policies') REPLY='-h --help' ;;
    'catalog distance-units') REPLY='-h --help' ;;
    'catalog payment-systems') REPLY='-h --help' ;;
    'catalog payment-types') REPLY='-h --help' ;;
    'catalog extra-options') REPLY='-h --help' ;;
    'vehicle') REPLY='-h --help' ;;
    'vehicle list') REPLY='--limit --offset --page --all --where --free-on --sort --search --wide --ids -h --help' ;;
    'vehicle get') REPLY='--all-fields --wide --ids -h --help' ;;
    'vehicle create') REPLY='-i --interactive --save --fresh --allow-duplicate --pickup-location --vehicle-class-id --vehicle-model-id --vehicle-segment-id --vehicle-year-of-issue-id --vehicle-reg-number --vehicle-activity --price-per-day --vehicle-currency-id --vehicle-images --vehicle-description --brand --configuration --set --from-file --allow-unknown --help-all -h --help --vehicle-vin --vehicle-odometer --vehicle-reg-number-country --price-per-3days --price-per-week --price-per-14days --vehicle-protection-plans-insurance-price --vehicle-protection-plans-insurance-exclude-security-deposit --vehicle-protection-plans-no-deposit --vehicle-protection-plans-third-party-insurance --vehicle-protection-plans-deposit-price --vehicle-protection-plans-deposit-pay-cash --vehicle-protection-plans-deposit-pay-debit-card --vehicle-protection-plans-deposit-pay-credit-card --vehicle-protection-plans-deposit-return-period-cash --vehicle-protection-plans-deposit-return-period-card --vehicle-protection-plans-cdw1-price-day --vehicle-protection-plans-cdw1-franchise --vehicle-protection-plans-cdw1-security-deposit --vehicle-protection-plans-cdw2-price-day --vehicle-protection-plans-cdw2-franchise --vehicle-protection-plans-cdw2-security-deposit --vehicle-protection-plans-tire-windshield-price-day --vehicle-protection-plans-theft-price-day --vehicle-protection-plans-interior-price-day --vehicle-protection-plans-roadside-price-day --vehicle-tuning-text --vehicle-delivery-address-fixed-place --vehicle-delivery-address-fixed-location --vehicle-delivery-address-fixed-price --vehicle-delivery-return-fixed-place --vehicle-delivery-return-fixed-location --vehicle-delivery-return-fixed-price --vehicle-distance-unit-id --vehicle-distance-included --vehicle-surcharge-for-excess --price-surcharge-over-time --vehicle-minimal-renting-period --vehicle-minimal-age-to-rent --vehicle-drivers-experience --price-subscription-month --price-subscription-3month --price-subscription-6month --price-subscription-year --price-subscription-2years --price-subscription-3years --vehicle-benefits-id --vehicle-options-id --vehicle-payment-types --vehicle-availability-calendar --vehicle-passenger-capacity --vehicle-luggage-capacity --vehicle-extras --vehicle-fuel-policy --vehicle-booking-lead-time' ;;
    'vehicle wizard') REPLY='--from-file --save --fresh --with-ids -h --help' ;;
    'vehicle edit') REPLY='--replace --clamp --allow-duplicate --add --remove --pickup-location --vehicle-class-id --vehicle-model-id --vehicle-segment-id --vehicle-year-of-issue-id --vehicle-reg-number --vehicle-activity --price-per-day --vehicle-currency-id --vehicle-images --vehicle-description --brand --configuration --set --from-file --allow-unknown --where --concurrency --report --restart --help-all -h --help --vehicle-vin --vehicle-odometer --vehicle-reg-number-country --price-per-3days --price-per-week --price-per-14days --vehicle-protection-plans-insurance-price --vehicle-protection-plans-insurance-exclude-security-deposit --vehicle-protection-plans-no-deposit --vehicle-protection-plans-third-party-insurance --vehicle-protection-plans-deposit-price --vehicle-protection-plans-deposit-pay-cash --vehicle-protection-plans-deposit-pay-debit-card --vehicle-protection-plans-deposit-pay-credit-card --vehicle-protection-plans-deposit-return-period-cash --vehicle-protection-plans-deposit-return-period-card --vehicle-protection-plans-cdw1-price-day --vehicle-protection-plans-cdw1-franchise --vehicle-protection-plans-cdw1-security-deposit --vehicle-protection-plans-cdw2-price-day --vehicle-protection-plans-cdw2-franchise --vehicle-protection-plans-cdw2-security-deposit --vehicle-protection-plans-tire-windshield-price-day --vehicle-protection-plans-theft-price-day --vehicle-protection-plans-interior-price-day --vehicle-protection-plans-roadside-price-day --vehicle-tuning-text --vehicle-delivery-address-fixed-place --vehicle-delivery-address-fixed-location --vehicle-delivery-address-fixed-price --vehicle-delivery-return-fixed-place --vehicle-delivery-return-fixed-location --vehicle-delivery-return-fixed-price --vehicle-distance-unit-id --vehicle-distance-included --vehicle-surcharge-for-excess --price-surcharge-over-time --vehicle-minimal-renting-period --vehicle-minimal-age-to-rent --vehicle-drivers-experience --price-subscription-month --price-subscription-3month --price-subscription-6month --price-subscription-year --price-subscription-2years --price-subscription-3years --vehicle-benefits-id --vehicle-options-id --vehicle-payment-types --vehicle-availability-calendar --vehicle-passenger-capacity --vehicle-luggage-capacity --vehicle-extras --vehicle-fuel-policy --vehicle-booking-lead-time' ;;
    'vehicle remove') REPLY='--where --concurrency --report --restart -h --help' ;;
    'vehicle activate') REPLY='--where --concurrency --report --restart -h --help' ;;
    'vehicle deactivate') REPLY='--where --concurrency --report --restart -h --help' ;;
    'vehicle calendar') REPLY='--block --unblock --clear-past --from --months --board --days --limit --offset --page --where --all --concurrency --report --restart --wide -h --help' ;;
    'vehicle export') REPLY='--format --with-ids --names --where --search -h --help' ;;
    'vehicle import') REPLY='--format --concurrency --skip-invalid --restart --report --no-dedupe -h --help' ;;
    'vehicle diff') REPLY='-f --file --format --prune --exact --out --markdown -h --help' ;;
    'vehicle apply') REPLY='-f --file --format --prune --exact --plan --allow-mass-delete --concurrency --restart --report --no-dedupe -h --help' ;;
    'vehicle schema') REPLY='-h --help' ;;
    'image') REPLY='-h --help' ;;
    'image upload') REPLY='--attach --any-type -h --help' ;;
    'extra') REPLY='-h --help' ;;
    'extra options') REPLY='-h --help' ;;
    'extra list') REPLY='--limit --offset --page --all --search --used-by --wide --ids -h --help' ;;
    'extra get') REPLY='--all-fields --wide --ids -h --help' ;;
    'extra create') REPLY='--option --price --currency --period --quantity --set --from-file --allow-unknown --strict -h --help' ;;
    'extra update') REPLY='--replace --option --price --currency --period --quantity --set --from-file --allow-unknown --strict -h --help' ;;
    'extra enable') REPLY='-h --help' ;;
    'extra disable') REPLY='-h --help' ;;
    'extra switch') REPLY='-h --help' ;;
    'extra delete') REPLY='--force -h --help' ;;
    'account') REPLY='-h --help' ;;
    'account export') REPLY='--format --names -h --help' ;;
    'account diff') REPLY='-f --file --format --prune --exact --markdown --out -h --help' ;;
    'account apply') REPLY='-f --file --format --prune --exact --plan --allow-mass-delete --concurrency --restart --report --no-dedupe -h --help' ;;
    'account schema') REPLY='-h --help' ;;
    'lint') REPLY='-f --file --format --config --fail-on --fix --out --markdown --sarif -h --help' ;;
    'undo') REPLY='--limit --force --all-owners --no-dedupe -h --help' ;;
    'api') REPLY='-X --method -f --field -F --file --list --openapi -h --help' ;;
    'mcp') REPLY='--allow-writes --max-changes --plan-ttl --print-config -h --help' ;;
    'sandbox') REPLY='-h --help' ;;
    'sandbox serve') REPLY='--host --port --data --memory --latency --fail-rate --html502-rate --reset-rate --throttle-rate --retry-after --fault-first -h --help' ;;
    'sandbox reset') REPLY='--data -h --help' ;;
    'sandbox repair') REPLY='--data -h --help' ;;
    'sandbox info') REPLY='--data -h --help' ;;
    'completion') REPLY='-h --help' ;;
    'completion __complete') REPLY='--ids -h --help' ;;
    *) REPLY='' ;;
  esac
  REPLY+=' -p --profile --env --base-url --user --locale -o --output --json --timeout --no-color -q --quiet -v --verbose -y --yes --dry-run --fields --raw --settle --no-wait'
}

# _rentctl_takes_value PATH FLAG: succeeds when FLAG takes a value under PATH.
_rentctl_takes_value() {
  case $1 in
    'catalog setup') case $2 in --segment) return 0 ;; esac ;;
    'catalog brands') case $2 in --segment) return 0 ;; esac ;;
    'catalog models') case $2 in --segment | --brand) return 0 ;; esac ;;
    'catalog equipments') case $2 in --model | --brand) return 0 ;; esac ;;
    'catalog classes') case $2 in --segment) return 0 ;; esac ;;
    'catalog transmissions') case $2 in --segment) return 0 ;; esac ;;
    'catalog benefits') case $2 in --segment) return 0 ;; esac ;;
    'catalog features') case $2 in --segment) return 0 ;; esac ;;
    'catalog options') case $2 in --segment) return 0 ;; esac ;;
    'vehicle list') case $2 in --limit | --offset | --page | --where | --free-on | --sort | --search) return 0 ;; esac ;;
    'vehicle create') case $2 in --save | --pickup-location | --vehicle-class-id | --vehicle-model-id | --vehicle-segment-id | --vehicle-year-of-issue-id | --vehicle-reg-number | --vehicle-activity | --price-per-day | --vehicle-currency-id | --vehicle-images | --vehicle-description | --brand | --configuration | --set | --from-file | --location | --class | --model | --segment | --year | --vehicle-vin | --vehicle-odometer | --vehicle-reg-number-country | --reg | --active | --price | --price-per-3days | --price-per-week | --price-per-14days | --currency | --vehicle-protection-plans-insurance-price | --vehicle-protection-plans-insurance-exclude-security-deposit | --vehicle-protection-plans-no-deposit | --vehicle-protection-plans-third-party-insurance | --vehicle-protection-plans-deposit-price | --vehicle-protection-plans-deposit-pay-cash | --vehicle-protection-plans-deposit-pay-debit-card | --vehicle-protection-plans-deposit-pay-credit-card | --vehicle-protection-plans-deposit-return-period-cash | --vehicle-protection-plans-deposit-return-period-card | --vehicle-protection-plans-cdw1-price-day | --vehicle-protection-plans-cdw1-franchise | --vehicle-protection-plans-cdw1-security-deposit | --vehicle-protection-plans-cdw2-price-day | --vehicle-protection-plans-cdw2-franchise | --vehicle-protection-plans-cdw2-security-deposit | --vehicle-protection-plans-tire-windshield-price-day | --vehicle-protection-plans-theft-price-day | --vehicle-protection-plans-interior-price-day | --vehicle-protection-plans-roadside-price-day | --vehicle-tuning-text | --vehicle-delivery-address-fixed-place | --vehicle-delivery-address-fixed-location | --vehicle-delivery-address-fixed-price | --vehicle-delivery-return-fixed-place | --vehicle-delivery-return-fixed-location | --vehicle-delivery-return-fixed-price | --vehicle-distance-unit-id | --vehicle-distance-included | --vehicle-surcharge-for-excess | --price-surcharge-over-time | --image | --vehicle-minimal-renting-period | --vehicle-minimal-age-to-rent | --vehicle-drivers-experience | --price-subscription-month | --price-subscription-3month | --price-subscription-6month | --price-subscription-year | --price-subscription-2years | --price-subscription-3years | --description | --vehicle-benefits-id | --vehicle-options-id | --vehicle-payment-types | --vehicle-availability-calendar | --vehicle-passenger-capacity | --vehicle-luggage-capacity | --vehicle-extras | --vehicle-fuel-policy | --vehicle-booking-lead-time) return 0 ;; esac ;;
    'vehicle wizard') case $2 in --from-file | --save) return 0 ;; esac ;;
    'vehicle edit') case $2 in --add | --remove | --pickup-location | --vehicle-class-id | --vehicle-model-id | --vehicle-segment-id | --vehicle-year-of-issue-id | --vehicle-reg-number | --vehicle-activity | --price-per-day | --vehicle-currency-id | --vehicle-images | --vehicle-description | --brand | --configuration | --set | --from-file | --where | --concurrency | --report | --location | --class | --model | --segment | --year | --vehicle-vin | --vehicle-odometer | --vehicle-reg-number-country | --reg | --active | --price | --price-per-3days | --price-per-week | --price-per-14days | --currency | --vehicle-protection-plans-insurance-price | --vehicle-protection-plans-insurance-exclude-security-deposit | --vehicle-protection-plans-no-deposit | --vehicle-protection-plans-third-party-insurance | --vehicle-protection-plans-deposit-price | --vehicle-protection-plans-deposit-pay-cash | --vehicle-protection-plans-deposit-pay-debit-card | --vehicle-protection-plans-deposit-pay-credit-card | --vehicle-protection-plans-deposit-return-period-cash | --vehicle-protection-plans-deposit-return-period-card | --vehicle-protection-plans-cdw1-price-day | --vehicle-protection-plans-cdw1-franchise | --vehicle-protection-plans-cdw1-security-deposit | --vehicle-protection-plans-cdw2-price-day | --vehicle-protection-plans-cdw2-franchise | --vehicle-protection-plans-cdw2-security-deposit | --vehicle-protection-plans-tire-windshield-price-day | --vehicle-protection-plans-theft-price-day | --vehicle-protection-plans-interior-price-day | --vehicle-protection-plans-roadside-price-day | --vehicle-tuning-text | --vehicle-delivery-address-fixed-place | --vehicle-delivery-address-fixed-location | --vehicle-delivery-address-fixed-price | --vehicle-delivery-return-fixed-place | --vehicle-delivery-return-fixed-location | --vehicle-delivery-return-fixed-price | --vehicle-distance-unit-id | --vehicle-distance-included | --vehicle-surcharge-for-excess | --price-surcharge-over-time | --image | --vehicle-minimal-renting-period | --vehicle-minimal-age-to-rent | --vehicle-drivers-experience | --price-subscription-month | --price-subscription-3month | --price-subscription-6month | --price-subscription-year | --price-subscription-2years | --price-subscription-3years | --description | --vehicle-benefits-id | --vehicle-options-id | --vehicle-payment-types | --vehicle-availability-calendar | --vehicle-passenger-capacity | --vehicle-luggage-capacity | --vehicle-extras | --vehicle-fuel-policy | --vehicle-booking-lead-time) return 0 ;; esac ;;
    'vehicle remove') case $2 in --where | --concurrency | --report) return 0 ;; esac ;;
    'vehicle activate') case $2 in --where | --concurrency | --report) return 0 ;; esac ;;
    'vehicle deactivate') case $2 in --where | --concurrency | --report) return 0 ;; esac ;;
    'vehicle calendar') case $2 in --block | --unblock | --from | --months | --days | --limit | --offset | --page | --where | --concurrency | --report) return 0 ;; esac ;;
    'vehicle export') case $2 in --format | --where | --search) return 0 ;; esac ;;
    'vehicle import') case $2 in --format | --concurrency | --report) return 0 ;; esac ;;
    'vehicle diff') case $2 in -f | --file | --format | --out) return 0 ;; esac ;;
    'vehicle apply') case $2 in -f | --file | --format | --plan | --concurrency | --report) return 0 ;; esac ;;
    'image upload') case $2 in --attach) return 0 ;; esac ;;
    'extra list') case $2 in --limit | --offset | --page | --search) return 0 ;; esac ;;
    'extra create') case $2 in --option | --price | --currency | --period | --quantity | --set | --from-file) return 0 ;; esac ;;
    'extra update') case $2 in --option | --price | --currency | --period | --quantity | --set | --from-file) return 0 ;; esac ;;
    'account export') case $2 in --format) return 0 ;; esac ;;
    'account diff') case $2 in -f | --file | --format | --out) return 0 ;; esac ;;
    'account apply') case $2 in -f | --file | --format | --plan | --concurrency | --report) return 0 ;; esac ;;
    'lint') case $2 in -f | --file | --format | --config | --fail-on | --out) return 0 ;; esac ;;
    'undo') case $2 in --limit) return 0 ;; esac ;;
    'api') case $2 in -X | --method | -f | --field | -F | --file) return 0 ;; esac ;;
    'mcp') case $2 in --allow-writes | --max-changes | --plan-ttl) return 0 ;; esac ;;
    'sandbox serve') case $2 in --host | --port | --data | --latency | --fail-rate | --html502-rate | --reset-rate | --throttle-rate | --retry-after | --fault-first) return 0 ;; esac ;;
    'sandbox reset') case $2 in --data) return 0 ;; esac ;;
    'sandbox repair') case $2 in --data) return 0 ;; esac ;;
    'sandbox info') case $2 in --data) return 0 ;; esac ;;
  esac
  case $2 in
    -p | --profile | --env | --base-url | --user | --locale | -o | --output | --timeout | --fields | --settle) return 0 ;;
  esac
  return 1
}

# _rentctl_flag_values PATH FLAG: complete the value of FLAG under PATH.
_rentctl_flag_values() {
  case "$1|$2" in
    'catalog setup|--segment' |\
    'catalog brands|--segment' |\
    'catalog models|--segment' |\
    'catalog classes|--segment' |\
    'catalog transmissions|--segment' |\
    'catalog benefits|--segment' |\
    'catalog features|--segment' |\
    'catalog options|--segment') _rentctl_dynamic 'catalog' 'segments' ;;
    'catalog models|--brand' |\
    'catalog equipments|--brand' |\
    'vehicle create|--brand' |\
    'vehicle edit|--brand') _rentctl_dynamic 'catalog' 'brands' ;;
    'catalog equipments|--model' |\
    'vehicle create|--model' |\
    'vehicle edit|--model') _rentctl_dynamic 'catalog' 'models' ;;
    'vehicle|--fields' |\
    'vehicle list|--fields' |\
    'vehicle get|--fields' |\
    'vehicle create|--fields' |\
    'vehicle wizard|--fields' |\
    'vehicle edit|--fields' |\
    'vehicle remove|--fields' |\
    'vehicle activate|--fields' |\
    'vehicle deactivate|--fields' |\
    'vehicle calendar|--fields' |\
    'vehicle export|--fields' |\
    'vehicle import|--fields' |\
    'vehicle diff|--fields' |\
    'vehicle apply|--fields' |\
    'vehicle schema|--fields' |\
    'vehicle help|--fields') _rentctl_list 'id user_id locale_id pickup_location vehicle_class_id vehicle_model_id vehicle_segment_id vehicle_year_of_issue_id vehicle_vin vehicle_odometer vehicle_reg_number_country vehicle_reg_number vehicle_activity price_per_day price_per_3days price_per_week price_per_14days vehicle_currency_id vehicle_protection_plans_insurance_price vehicle_protection_plans_insurance_exclude_security_deposit vehicle_protection_plans_no_deposit vehicle_protection_plans_third_party_insurance vehicle_protection_plans_deposit_price vehicle_protection_plans_deposit_pay_cash vehicle_protection_plans_deposit_pay_debit_card vehicle_protection_plans_deposit_pay_credit_card vehicle_protection_plans_deposit_return_period_cash vehicle_protection_plans_deposit_return_period_card vehicle_protection_plans_cdw1_price_day vehicle_protection_plans_cdw1_franchise vehicle_protection_plans_cdw1_security_deposit vehicle_protection_plans_cdw2_price_day vehicle_protection_plans_cdw2_franchise vehicle_protection_plans_cdw2_security_deposit vehicle_protection_plans_tire_windshield_price_day vehicle_protection_plans_theft_price_day vehicle_protection_plans_interior_price_day vehicle_protection_plans_roadside_price_day vehicle_tuning_text vehicle_delivery_address_fixed_place vehicle_delivery_address_fixed_location vehicle_delivery_address_fixed_price vehicle_delivery_return_fixed_place vehicle_delivery_return_fixed_location vehicle_delivery_return_fixed_price vehicle_distance_unit_id vehicle_distance_included vehicle_surcharge_for_excess price_surcharge_over_time vehicle_images vehicle_minimal_renting_period vehicle_minimal_age_to_rent vehicle_drivers_experience price_subscription_month price_subscription_3month price_subscription_6month price_subscription_year price_subscription_2years price_subscription_3years vehicle_description vehicle_benefits_id vehicle_options_id vehicle_payment_types vehicle_availability_calendar vehicle_passenger_capacity vehicle_luggage_capacity vehicle_extras vehicle_fuel_policy vehicle_booking_lead_time' ;;
    'vehicle create|--save' |\
    'vehicle create|--from-file' |\
    'vehicle wizard|--from-file' |\
    'vehicle wizard|--save' |\
    'vehicle edit|--from-file' |\
    'vehicle edit|--report' |\
    'vehicle remove|--report' |\
    'vehicle activate|--report' |\
    'vehicle deactivate|--report' |\
    'vehicle calendar|--report' |\
    'vehicle import|--report' |\
    'vehicle diff|-f' |\
    'vehicle diff|--file' |\
    'vehicle diff|--out' |\
    'vehicle apply|-f' |\
    'vehicle apply|--file' |\
    'vehicle apply|--plan' |\
    'vehicle apply|--report' |\
    'extra create|--from-file' |\
    'extra update|--from-file' |\
    'account diff|-f' |\
    'account diff|--file' |\
    'account diff|--out' |\
    'account apply|-f' |\
    'account apply|--file' |\
    'account apply|--plan' |\
    'account apply|--report' |\
    'lint|-f' |\
    'lint|--file' |\
    'lint|--config' |\
    'lint|--out' |\
    'api|-F' |\
    'api|--file' |\
    'sandbox serve|--data' |\
    'sandbox reset|--data' |\
    'sandbox repair|--data' |\
    'sandbox info|--data') _rentctl_files ;;
    'vehicle create|--vehicle-class-id' |\
    'vehicle create|--class' |\
    'vehicle edit|--vehicle-class-id' |\
    'vehicle edit|--class') _rentctl_dynamic 'catalog' 'classes' '--ids' ;;
    'vehicle create|--vehicle-model-id' |\
    'vehicle edit|--vehicle-model-id') _rentctl_dynamic 'catalog' 'equipments' '--ids' ;;
    'vehicle create|--vehicle-segment-id' |\
    'vehicle create|--segment' |\
    'vehicle edit|--vehicle-segment-id' |\
    'vehicle edit|--segment') _rentctl_dynamic 'catalog' 'segments' '--ids' ;;
    'vehicle create|--vehicle-year-of-issue-id' |\
    'vehicle create|--year' |\
    'vehicle edit|--vehicle-year-of-issue-id' |\
    'vehicle edit|--year') _rentctl_dynamic 'catalog' 'years' '--ids' ;;
    'vehicle create|--vehicle-activity' |\
    'vehicle create|--vehicle-protection-plans-insurance-exclude-security-deposit' |\
    'vehicle create|--vehicle-protection-plans-no-deposit' |\
    'vehicle create|--vehicle-protection-plans-third-party-insurance' |\
    'vehicle create|--vehicle-protection-plans-deposit-pay-cash' |\
    'vehicle create|--vehicle-protection-plans-deposit-pay-debit-card' |\
    'vehicle create|--vehicle-protection-plans-deposit-pay-credit-card' |\
    'vehicle edit|--vehicle-activity' |\
    'vehicle edit|--vehicle-protection-plans-insurance-exclude-security-deposit' |\
    'vehicle edit|--vehicle-protection-plans-no-deposit' |\
    'vehicle edit|--vehicle-protection-plans-third-party-insurance' |\
    'vehicle edit|--vehicle-protection-plans-deposit-pay-cash' |\
    'vehicle edit|--vehicle-protection-plans-deposit-pay-debit-card' |\
    'vehicle edit|--vehicle-protection-plans-deposit-pay-credit-card') _rentctl_words '0 1' ;;
    'vehicle create|--vehicle-currency-id' |\
    'vehicle create|--currency' |\
    'vehicle edit|--vehicle-currency-id' |\
    'vehicle edit|--currency') _rentctl_dynamic 'catalog' 'currencies' '--ids' ;;
    'vehicle create|--configuration' |\
    'vehicle edit|--configuration') _rentctl_dynamic 'catalog' 'equipments' ;;
    'vehicle create|--set' |\
    'vehicle edit|--set') _rentctl_assign 'user_id locale_id pickup_location vehicle_class_id vehicle_model_id vehicle_segment_id vehicle_year_of_issue_id vehicle_vin vehicle_odometer vehicle_reg_number_country vehicle_reg_number vehicle_activity price_per_day price_per_3days price_per_week price_per_14days vehicle_currency_id vehicle_protection_plans_insurance_price vehicle_protection_plans_insurance_exclude_security_deposit vehicle_protection_plans_no_deposit vehicle_protection_plans_third_party_insurance vehicle_protection_plans_deposit_price vehicle_protection_plans_deposit_pay_cash vehicle_protection_plans_deposit_pay_debit_card vehicle_protection_plans_deposit_pay_credit_card vehicle_protection_plans_deposit_return_period_cash vehicle_protection_plans_deposit_return_period_card vehicle_protection_plans_cdw1_price_day vehicle_protection_plans_cdw1_franchise vehicle_protection_plans_cdw1_security_deposit vehicle_protection_plans_cdw2_price_day vehicle_protection_plans_cdw2_franchise vehicle_protection_plans_cdw2_security_deposit vehicle_protection_plans_tire_windshield_price_day vehicle_protection_plans_theft_price_day vehicle_protection_plans_interior_price_day vehicle_protection_plans_roadside_price_day vehicle_tuning_text vehicle_delivery_address_fixed_place vehicle_delivery_address_fixed_location vehicle_delivery_address_fixed_price vehicle_delivery_return_fixed_place vehicle_delivery_return_fixed_location vehicle_delivery_return_fixed_price vehicle_distance_unit_id vehicle_distance_included vehicle_surcharge_for_excess price_surcharge_over_time vehicle_images vehicle_minimal_renting_period vehicle_minimal_age_to_rent vehicle_drivers_experience price_subscription_month price_subscription_3month price_subscription_6month price_subscription_year price_subscription_2years price_subscription_3years vehicle_description vehicle_benefits_id vehicle_options_id vehicle_payment_types vehicle_availability_calendar vehicle_passenger_capacity vehicle_luggage_capacity vehicle_extras vehicle_fuel_policy vehicle_booking_lead_time' ;;
    'vehicle create|--vehicle-reg-number-country' |\
    'vehicle edit|--vehicle-reg-number-country') _rentctl_dynamic 'catalog' 'setup' '--ids' ;;
    'vehicle create|--vehicle-protection-plans-deposit-return-period-cash' |\
    'vehicle create|--vehicle-protection-plans-deposit-return-period-card' |\
    'vehicle edit|--vehicle-protection-plans-deposit-return-period-cash' |\
    'vehicle edit|--vehicle-protection-plans-deposit-return-period-card') _rentctl_dynamic 'catalog' 'protection-plans' '--ids' ;;
    'vehicle create|--vehicle-delivery-address-fixed-place' |\
    'vehicle create|--vehicle-delivery-return-fixed-place' |\
    'vehicle edit|--vehicle-delivery-address-fixed-place' |\
    'vehicle edit|--vehicle-delivery-return-fixed-place') _rentctl_dynamic 'catalog' 'delivery' '--ids' ;;
    'vehicle create|--vehicle-distance-unit-id' |\
    'vehicle edit|--vehicle-distance-unit-id') _rentctl_dynamic 'catalog' 'distance-units' '--ids' ;;
    'vehicle create|--vehicle-benefits-id' |\
    'vehicle edit|--vehicle-benefits-id') _rentctl_dynamic 'catalog' 'benefits' '--ids' ;;
    'vehicle create|--vehicle-options-id' |\
    'vehicle edit|--vehicle-options-id') _rentctl_dynamic 'catalog' 'features' '--ids' ;;
    'vehicle create|--vehicle-payment-types' |\
    'vehicle edit|--vehicle-payment-types') _rentctl_dynamic 'catalog' 'payment-types' '--ids' ;;
    'vehicle create|--vehicle-fuel-policy' |\
    'vehicle edit|--vehicle-fuel-policy') _rentctl_dynamic 'catalog' 'fuel-policies' '--ids' ;;
    'vehicle diff|-o' |\
    'vehicle diff|--output' |\
    'account diff|-o' |\
    'account diff|--output') _rentctl_words 'table json ndjson csv yaml markdown' ;;
    'extra|--fields' |\
    'extra options|--fields' |\
    'extra list|--fields' |\
    'extra get|--fields' |\
    'extra create|--fields' |\
    'extra update|--fields' |\
    'extra enable|--fields' |\
    'extra disable|--fields' |\
    'extra switch|--fields' |\
    'extra delete|--fields' |\
    'extra help|--fields') _rentctl_list 'id locale_id option_id price currency_id period quantity' ;;
    'extra create|--option' |\
    'extra update|--option') _rentctl_dynamic 'catalog' 'extra-options' ;;
    'extra create|--currency' |\
    'extra update|--currency') _rentctl_dynamic 'catalog' 'currencies' ;;
    'extra create|--set' |\
    'extra update|--set') _rentctl_assign 'locale_id option_id price currency_id period quantity' ;;
    'lint|--fail-on') _rentctl_words 'error warning info' ;;
    'lint|-o' |\
    'lint|--output') _rentctl_words 'table json ndjson csv yaml markdown sarif' ;;
    *'|-p' |\
    *'|--profile') _rentctl_dynamic 'profiles' ;;
    *'|--env') _rentctl_words 'production test sandbox' ;;
    *'|--base-url' |\
    *'|--user' |\
    *'|--timeout' |\
    *'|--fields' |\
    *'|--settle') : ;;
    *'|--locale') _rentctl_dynamic 'catalog' 'locales' ;;
    *'|-o' |\
    *'|--output') _rentctl_words 'table json ndjson csv yaml' ;;
  esac
}

# _rentctl_arg_values PATH INDEX: complete the positional argument INDEX (from 0) of PATH.
_rentctl_arg_values() {
  case "$1|$2" in
    'auth help|0') _rentctl_words 'login status logout migrate' ;;
    'profile show|0' |\
    'profile use|0' |\
    'profile remove|0') _rentctl_dynamic 'profiles' ;;
    'profile set|0') _rentctl_words 'env base-url api-key user locale output timeout' ;;
    'profile help|0') _rentctl_words 'list show use set remove' ;;
    'catalog help|0') _rentctl_words 'setup currencies locales segments brands models equipments years classes transmissions benefits features options protection-plans delivery fuel-policies distance-units payment-systems payment-types extra-options' ;;
    'vehicle get|0') _rentctl_dynamic 'vehicles' ;;
    'vehicle export|0' |\
    'vehicle import|0' |\
    'account export|0') _rentctl_files ;;
    'vehicle help|0') _rentctl_words 'list get create wizard edit remove activate deactivate calendar export import diff apply schema' ;;
    'image help|0') _rentctl_words 'upload' ;;
    'extra help|0') _rentctl_words 'options list get create update enable disable switch delete' ;;
    'account help|0') _rentctl_words 'export diff apply schema' ;;
    'api|0') _rentctl_words 'setup currencies locales vehicles/segments vehicles/brands vehicles/models vehicles/equipments vehicles/years_of_issue vehicles/classes_or_types vehicles/transmissions vehicles/benefits vehicles/additional_features vehicles/options vehicles/protection_plans vehicles/delivery vehicles/fuel_policy vehicles/distance_units vehicles/payment_systems vehicles/payment/types vehicles/extras/options vehicles/list vehicles/list/id vehicles/create vehicles/edit vehicles/remove vehicles/upload vehicles/extras/list vehicles/extras/list/id vehicles/extras/create vehicles/extras/update vehicles/extras/switch vehicles/extras/delete' ;;
    'sandbox help|0') _rentctl_words 'serve reset repair info' ;;
    'completion|0') _rentctl_words 'bash zsh fish' ;;
    'help|0') _rentctl_words 'auth profile catalog vehicle image extra account lint undo api mcp sandbox completion' ;;
    'vehicle edit|'* |\
    'vehicle remove|'* |\
    'vehicle activate|'* |\
    'vehicle deactivate|'* |\
    'vehicle calendar|'*) _rentctl_dynamic 'vehicles' ;;
    'image upload|'*) _rentctl_files ;;
  esac
  :
}

# Helpers: each adds to COMPREPLY the candidates that start with $cur.
_rentctl_words() {
  local w words
  read -ra words <<<"$1"
  for w in "${words[@]}"; do
    [[ $w == "$cur"* ]] && COMPREPLY+=("$w")
  done
}

# NAME=VALUE pairs: offer NAME= and no space after it.
_rentctl_assign() {
  [[ $cur == *=* ]] && return
  local w words
  read -ra words <<<"$1"
  for w in "${words[@]}"; do
    [[ $w= == "$cur"* ]] && COMPREPLY+=("$w=")
  done
  compopt -o nospace 2>/dev/null
}

# A comma-separated list: complete its last item, skip the ones already given.
_rentctl_list() {
  local last=${cur##*,} w words
  local head=${cur%"$last"}
  read -ra words <<<"$1"
  for w in "${words[@]}"; do
    [[ $w == "$last"* && ,$head != *",$w,"* ]] && COMPREPLY+=("$head$w")
  done
  compopt -o nospace 2>/dev/null
}

_rentctl_files() {
  local f
  compopt -o filenames 2>/dev/null
  while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -f -- "$cur")
}

# Values known only at TAB time (profile names, cached catalogs): asked of
# "rentctl completion __complete ARGS", one "value<TAB>description" per line; the words
# already on the line go along in RENTCTL_COMPLETE_WORDS (one per line).
_rentctl_dynamic() {
  local line value
  while IFS= read -r line; do
    value=${line%%$'\t'*}
    [[ -n $value && $value == "$cur"* ]] || continue
    value=${value//\\/\\\\}
    value=${value// /\\ }
    value=${value//\'/\\\'}
    value=${value//\"/\\\"}
    value=${value//(/\\(}
    value=${value//)/\\)}
    COMPREPLY+=("$value")
  done < <(RENTCTL_COMPLETE_WORDS="$(printf '%s\n' "${words[@]:1:cword-1}")" command rentctl completion __complete "$@" 2>/dev/null)
}

# _rentctl_is_sep WORD: WORD is only word-break characters ("=" or ":").
_rentctl_is_sep() {
  [[ -n $seps && -n $1 && -z ${1//["$seps"]/} ]]
}

_rentctl() {
  local cur i w gap pos=0 rest trimmed seps='' line=${COMP_LINE-}
  local words=() cword=0
  COMPREPLY=()
  [[ ${COMP_WORDBREAKS-=:} == *=* ]] && seps+='='
  [[ ${COMP_WORDBREAKS-=:} == *:* ]] && seps+=':'

  # bash splits "--output=json" and "https://x" at "=" and ":"; join them back.
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    if [[ -n $line ]]; then
      rest=${line:pos}
      trimmed=${rest#"${rest%%[![:space:]]*}"}
      gap=$((${#rest} - ${#trimmed}))
      pos=$((pos + gap + ${#w}))
    elif [[ -n $w ]]; then
      gap=0
    else
      gap=1
    fi
    if ((i > 0 && gap == 0)) && { _rentctl_is_sep "$w" || _rentctl_is_sep "${COMP_WORDS[i - 1]}"; }; then
      words[${#words[@]} - 1]+=$w
    else
      words+=("$w")
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  cur=${words[cword]-}

  # Walk the words before the cursor: the command path, positional count, pending flag.
  local path='' nargs=0 expect='' dashdash=0
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $expect ]]; then
      expect=''
    elif ((dashdash)); then
      nargs=$((nargs + 1))
    else
      case $w in
        --) dashdash=1 ;;
        -) nargs=$((nargs + 1)) ;;
        --*=*) ;;
        -*) _rentctl_takes_value "$path" "$w" && expect=$w ;;
        *)
          if ((nargs == 0)) && _rentctl_child "$path" "$w"; then
            path=$REPLY
          else
            nargs=$((nargs + 1))
          fi
          ;;
      esac
    fi
  done

  if [[ -n $expect ]]; then
    _rentctl_flag_values "$path" "$expect"
  elif ((!dashdash)) && [[ $cur == --*=* ]]; then
    local flag=${cur%%=*}
    cur=${cur#*=}
    _rentctl_takes_value "$path" "$flag" && _rentctl_flag_values "$path" "$flag"
  elif ((!dashdash)) && [[ $cur == -* ]]; then
    _rentctl_flags "$path"
    _rentctl_words "$REPLY"
  else
    _rentctl_commands "$path"
    if ((nargs == 0)) && [[ -n $REPLY ]]; then
      _rentctl_words "$REPLY"
    else
      _rentctl_arg_values "$path" "$nargs"
    fi
  fi

  # readline replaces only what follows the last "=" or ":" of the word.
  if [[ -n $seps && $cur == *["$seps"]* ]]; then
    local pre=${cur%"${cur##*["$seps"]}"}
    COMPREPLY=("${COMPREPLY[@]#"$pre"}")
  fi
  return 0
}

complete -F _rentctl rentctl
