//! The texts of the bank's authorisation pages in English and Norwegian bokmål. Pages never hold words
//! of their own: everything a PSU reads comes from here, so the two languages cannot drift apart.
//!
//! Texts are plain (not HTML); pages escape them. `{tpp}` marks where the TPP's name goes, so the page can
//! set it in bold.

use crate::api::layers::Language;
use xs2a_core::bank::sca::authorisation::{AuthMethod, Step};
use xs2a_core::bank::sca::engine::StepError;

/// Every fixed text of the pages, in one language.
pub struct Texts {
    pub bank_name: &'static str,
    pub sandbox_notice: &'static str,
    pub wants_consent: &'static str,
    pub wants_lookup: &'static str,
    pub wants_payment: &'static str,
    pub identified_as: &'static str,
    pub acting_for: &'static str,
    pub error_heading: &'static str,
    pub cancel: &'static str,
    pub continue_: &'static str,
    pub confirm: &'static str,
    pub other_language: &'static str,
    pub identify_title: &'static str,
    pub identify_lead: &'static str,
    pub national_id_label: &'static str,
    pub test_customers: &'static str,
    pub test_customers_hint: &'static str,
    pub method_title: &'static str,
    pub method_lead: &'static str,
    pub method_sandbox_note: &'static str,
    pub biometric_title: &'static str,
    pub biometric_lead: &'static str,
    pub biometric_button: &'static str,
    pub context_title: &'static str,
    pub context_lead: &'static str,
    pub private_label: &'static str,
    pub private_detail: &'static str,
    pub corporate_label: &'static str,
    pub org_number: &'static str,
    pub no_agreements: &'static str,
    pub consent_title: &'static str,
    pub consent_lead: &'static str,
    pub consent_revoke_note: &'static str,
    pub already_granted: &'static str,
    pub card: &'static str,
    pub no_accounts: &'static str,
    pub confirm_title: &'static str,
    pub confirm_lead: &'static str,
    pub confirm_detail: &'static str,
    pub expired_title: &'static str,
    pub expired_lead: &'static str,
    pub back_to_tpp: &'static str,
    pub not_found_title: &'static str,
    pub not_found_lead: &'static str,
    pub finished_title: &'static str,
    pub finished_lead: &'static str,
    pub handover_title: &'static str,
    pub handover_lead: &'static str,
    pub handover_address: &'static str,
    pub handover_continue: &'static str,
    pub handover_unreachable: &'static str,
    pub choose_method: &'static str,
    pub choose_context: &'static str,
}

const EN: Texts = Texts {
    bank_name: "xs2a-sandbox Bank",
    sandbox_notice: "Sandbox: test customers and test data only. No real bank is involved.",
    wants_consent: "{tpp} wants to read your account information",
    wants_lookup: "{tpp} wants to identify you",
    wants_payment: "{tpp} asks you to approve a payment",
    identified_as: "Identified as",
    acting_for: "Acting for",
    error_heading: "Something is not right",
    cancel: "Cancel",
    continue_: "Continue",
    confirm: "Confirm",
    other_language: "Norsk",
    identify_title: "Identify yourself",
    identify_lead: "Enter your national identity number (11 digits).",
    national_id_label: "National identity number",
    test_customers: "Test customers in this sandbox",
    test_customers_hint: "The sandbox only needs a mocked national identity number. Pick one of the test customers:",
    method_title: "Choose how to authenticate",
    method_lead: "Choose one of your authentication methods.",
    method_sandbox_note: "In the sandbox every method succeeds at once.",
    biometric_title: "Confirm in your bank app",
    biometric_lead: "{tpp} asked for biometric authentication in the bank's mobile app.",
    biometric_button: "Confirm with biometrics in the app",
    context_title: "Who do you act for?",
    context_lead: "Choose whether you act as a private person or on behalf of a company.",
    private_label: "Myself, as a private person",
    private_detail: "Your own accounts",
    corporate_label: "On behalf of",
    org_number: "org. no.",
    no_agreements: "You have no corporate agreements, so you act as a private person.",
    consent_title: "Choose accounts",
    consent_lead: "Tick the accounts {tpp} may read. Untick an account to revoke access to it.",
    consent_revoke_note: "Accounts you granted before are already ticked.",
    already_granted: "granted",
    card: "card",
    no_accounts: "There are no accounts to show in this context.",
    confirm_title: "Confirm your identity",
    confirm_lead: "Let {tpp} identify you.",
    confirm_detail: "{tpp} receives an identifier for you from the bank, not your national identity number.",
    expired_title: "This authorisation has expired",
    expired_lead: "It was not completed in time. Go back to {tpp} and start again.",
    back_to_tpp: "Back to {tpp}",
    not_found_title: "No such authorisation",
    not_found_lead: "The link may be wrong, or the sandbox was reset. Go back to the service you came from and start again.",
    finished_title: "Finished",
    finished_lead: "This authorisation is finished. You can close this window.",
    handover_title: "Back to {tpp}",
    handover_lead: "The bank sends your browser to the address below, with these values. In the workbench's PSU window the sandbox shows them here first; a TPP app's own browser flow goes straight on.",
    handover_address: "Address",
    handover_continue: "Continue to {tpp}",
    handover_unreachable: "If the TPP's app is not running, the browser cannot open the address: the values above are what it would receive, and the workbench's SCA screen keeps them.",
    choose_method: "Choose one of the methods.",
    choose_context: "Choose a private person or one of your agreements.",
};

const NB: Texts = Texts {
    bank_name: "xs2a-sandbox Bank",
    sandbox_notice: "Sandkasse: bare testkunder og testdata. Ingen ekte bank er involvert.",
    wants_consent: "{tpp} ønsker å lese kontoinformasjonen din",
    wants_lookup: "{tpp} ønsker å identifisere deg",
    wants_payment: "{tpp} ber deg godkjenne en betaling",
    identified_as: "Identifisert som",
    acting_for: "På vegne av",
    error_heading: "Noe er ikke riktig",
    cancel: "Avbryt",
    continue_: "Fortsett",
    confirm: "Bekreft",
    other_language: "English",
    identify_title: "Identifiser deg",
    identify_lead: "Skriv inn fødselsnummeret ditt (11 siffer).",
    national_id_label: "Fødselsnummer",
    test_customers: "Testkunder i denne sandkassen",
    test_customers_hint: "Sandkassen trenger bare et oppdiktet fødselsnummer. Velg en av testkundene:",
    method_title: "Velg innloggingsmetode",
    method_lead: "Velg en av innloggingsmetodene dine.",
    method_sandbox_note: "I sandkassen lykkes alle metoder med en gang.",
    biometric_title: "Bekreft i bankappen",
    biometric_lead: "{tpp} ba om biometrisk autentisering i bankens mobilapp.",
    biometric_button: "Bekreft med biometri i appen",
    context_title: "Hvem opptrer du for?",
    context_lead: "Velg om du opptrer som privatperson eller på vegne av en bedrift.",
    private_label: "Meg selv, som privatperson",
    private_detail: "Dine egne kontoer",
    corporate_label: "På vegne av",
    org_number: "org.nr.",
    no_agreements: "Du har ingen bedriftsavtaler, så du opptrer som privatperson.",
    consent_title: "Velg kontoer",
    consent_lead: "Kryss av kontoene {tpp} kan lese. Fjern krysset for å trekke tilbake tilgangen til en konto.",
    consent_revoke_note: "Kontoer du har gitt tilgang til før, er allerede krysset av.",
    already_granted: "gitt",
    card: "kort",
    no_accounts: "Det er ingen kontoer å vise i denne sammenhengen.",
    confirm_title: "Bekreft identiteten din",
    confirm_lead: "La {tpp} identifisere deg.",
    confirm_detail: "{tpp} får en identifikator for deg fra banken, ikke fødselsnummeret ditt.",
    expired_title: "Denne autorisasjonen er utløpt",
    expired_lead: "Den ble ikke fullført i tide. Gå tilbake til {tpp} og start på nytt.",
    back_to_tpp: "Tilbake til {tpp}",
    not_found_title: "Fant ikke autorisasjonen",
    not_found_lead: "Lenken kan være feil, eller sandkassen ble tilbakestilt. Gå tilbake til tjenesten du kom fra og start på nytt.",
    finished_title: "Ferdig",
    finished_lead: "Denne autorisasjonen er fullført. Du kan lukke vinduet.",
    handover_title: "Tilbake til {tpp}",
    handover_lead: "Banken sender nettleseren din til adressen nedenfor, med disse verdiene. I arbeidsbenkens PSU-vindu viser sandkassen dem her først; en TPP-apps egen nettleserflyt går rett videre.",
    handover_address: "Adresse",
    handover_continue: "Fortsett til {tpp}",
    handover_unreachable: "Kjører ikke TPP-ens app, kan ikke nettleseren åpne adressen: verdiene over er det den ville fått, og SCA-skjermen i arbeidsbenken tar vare på dem.",
    choose_method: "Velg en av metodene.",
    choose_context: "Velg privatperson eller en av avtalene dine.",
};

/// The texts in `lang`.
pub fn texts(lang: Language) -> &'static Texts {
    match lang {
        Language::English => &EN,
        Language::Norwegian => &NB,
    }
}

/// The name of an authentication method as the method page shows it.
pub fn method_label(lang: Language, method: AuthMethod) -> &'static str {
    let norwegian = lang == Language::Norwegian;
    match (method, norwegian) {
        (AuthMethod::EngangskodeappBiometri, false) => "Code app with biometrics",
        (AuthMethod::EngangskodeappBiometri, true) => "Kodeapp med biometri",
        (AuthMethod::Ha2, false) => "Personal code and one-time code (HA2)",
        (AuthMethod::Ha2, true) => "Personlig kode og engangskode (HA2)",
        (AuthMethod::MobileEid, false) => "Mobile e-ID",
        (AuthMethod::MobileEid, true) => "Mobil e-ID",
        (AuthMethod::BankId, false) => "Bank e-ID",
        (AuthMethod::BankId, true) => "Bank-e-ID",
    }
}

fn step_name(lang: Language, step: Step) -> &'static str {
    let norwegian = lang == Language::Norwegian;
    match (step, norwegian) {
        (Step::Identify, false) => "identify",
        (Step::Identify, true) => "identifisering",
        (Step::Method, false) => "method",
        (Step::Method, true) => "innloggingsmetode",
        (Step::Context, false) => "context",
        (Step::Context, true) => "privat eller bedrift",
        (Step::Consent, false) => "consent",
        (Step::Consent, true) => "samtykke",
        (Step::Confirm, false) => "confirm",
        (Step::Confirm, true) => "bekreftelse",
        (Step::Finished, false) => "finished",
        (Step::Finished, true) => "fullført",
    }
}

/// A refused step in the PSU's language. English reuses the engine's own wording.
pub fn step_error(lang: Language, error: &StepError) -> String {
    if lang == Language::English {
        return match error {
            StepError::WrongStep(step) => format!(
                "That step does not fit here; this authorisation is at step \"{}\".",
                step_name(lang, *step)
            ),
            other => other.to_string(),
        };
    }
    match error {
        StepError::NotFound => "Denne autorisasjonen finnes ikke.".into(),
        StepError::Expired => {
            "Denne autorisasjonen er utløpt; start på nytt fra tjenesten du kom fra.".into()
        }
        StepError::AlreadyFinished => "Denne autorisasjonen er allerede fullført.".into(),
        StepError::WrongStep(step) => format!(
            "Det steget passer ikke her; autorisasjonen er på steget «{}».",
            step_name(lang, *step)
        ),
        // The detail comes from the number parser, which speaks English only.
        StepError::InvalidNationalId(why) => {
            format!("Det er ikke et gyldig fødselsnummer ({why}).")
        }
        StepError::UnknownPerson => {
            "Ingen testkunde i sandkassen har dette fødselsnummeret.".into()
        }
        StepError::NoAgreements => {
            "Du har ingen bedriftsavtaler; velg å opptre som privatperson.".into()
        }
        StepError::UnknownAgreement => "Du har ingen slik bedriftsavtale.".into(),
        StepError::UnknownAccount(id) => {
            format!("Konto {id} kan ikke gis tilgang til i denne sammenhengen.")
        }
        StepError::NotAllowedToPay => {
            "Du har ikke rett til å betale fra kontoen som skal belastes.".into()
        }
        StepError::Storage(why) => format!("Sandkassen kunne ikke lagre dette steget: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sca_errors_are_translated_to_norwegian() {
        let text = step_error(Language::Norwegian, &StepError::UnknownPerson);
        assert!(text.contains("fødselsnummeret"), "{text}");
        let text = step_error(Language::English, &StepError::WrongStep(Step::Consent));
        assert!(text.contains("\"consent\""), "{text}");
    }
}
